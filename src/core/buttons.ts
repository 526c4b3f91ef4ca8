/**
 * The dispatcher's side of buttons: binding the buttons of an answer to the
 * chat it goes to, and the checks every press gets before it may run anything
 * (the pressed message shows it, its state is still stored, it was made in
 * this chat). How ids are made and read is actions.ts's; this is where a view
 * and a press meet the store, apart from running commands (dispatch.ts).
 */
import type { Logger } from 'pino';
import { translator, type Locale, type T } from '../i18n/index.ts';
import type { Store } from '../store/index.ts';
import type { StoredAction } from '../store/pages.ts';
import type { Action, View } from '../domain/view.ts';
import { bindAction, chatKey, parseActionId } from './actions.ts';
import type { Caller } from './command.ts';
import type { Registry } from './registry.ts';
import { labelled } from './boundary.ts';

/** The answer to a button pressed where it was not made; short, and nothing is edited. */
export const FOREIGN_BUTTON = translator('en')('errors.foreignButton');

export interface ButtonsOptions {
  readonly store: Store;
  readonly log: Logger;
  readonly commands: Registry;
  /** How long a bound button keeps working. */
  readonly actionTtlMs: number;
  readonly translate: (locale: Locale) => T;
  /** The language a press is answered in. */
  readonly localeOf: (caller: Caller) => Promise<Locale>;
}

export interface Buttons {
  /**
   * Stores each button's query, bound to the chat the answer goes to; if the
   * store is down the answer still goes out, without those buttons.
   */
  bind(view: View, chat: Pick<Caller, 'platform' | 'chatId' | 'threadId'>): Promise<View>;
  /** The stored action behind a press, after the checks every press gets; or the answer to show instead. */
  pressed(
    id: string,
    caller: Caller,
    opts: { readonly buttonsOnMessage?: readonly string[] },
  ): Promise<{ stored: StoredAction; locale: Locale } | { view: View }>;
}

export function createButtons(o: ButtonsOptions): Buttons {
  return {
    async bind(view, chat) {
      const actions = (view.actions ?? []) as Action[];
      const chats = [chatKey(chat)];
      try {
        await Promise.all(
          actions.map(async (a) => {
            if (!a.id)
              a.id = await bindAction(
                o.store.pages,
                { command: a.command, options: a.options, chats, ...(a.ask ? { ask: a.ask } : {}) },
                o.actionTtlMs,
                { opensNew: a.opensNew === true },
              );
          }),
        );
        return view;
      } catch (err) {
        o.log.warn({ err }, 'buttons dropped: the store did not take their state');
        return { ...view, actions: actions.filter((a) => a.id) };
      }
    },

    async pressed(id, caller, opts) {
      const locale = await o.localeOf(caller);
      const t = o.translate(locale);
      const refuse = (v: View) => ({ view: labelled(v, t) });
      // Forged callback data: the pressed message does not show this button.
      if (opts.buttonsOnMessage && !opts.buttonsOnMessage.includes(id))
        return refuse({ kind: 'error', message: t('errors.foreignButton') });
      const parsed = parseActionId(id);
      let stored: StoredAction | undefined;
      try {
        stored = parsed ? await o.store.pages.get(parsed.key) : undefined;
      } catch (err) {
        o.log.warn({ err }, 'button state unreadable');
        return refuse({ kind: 'error', message: t('errors.buttonsUnavailable') });
      }
      if (!stored) {
        const known = parsed?.command && o.commands.has(parsed.command) ? parsed.command : undefined;
        return refuse(
          known
            ? { kind: 'error', message: t('errors.pageExpired', { command: known }), example: `/${known}` }
            : { kind: 'error', message: t('errors.buttonsExpired'), example: '/help' },
        );
      }
      // A key copied from another chat's message: it must not act (or edit a message) here.
      if (!stored.chats.includes(chatKey(caller))) return refuse({ kind: 'error', message: t('errors.foreignButton') });
      return { stored, locale };
    },
  };
}
