/**
 * The one error boundary between the platforms and the commands. Adapters hand
 * it text, typed options or a pressed button; it always answers with a View,
 * whatever went wrong, and logs the detail that the user should not see.
 * This file decides which command each of those means and for whom; running it
 * is run.ts's, binding and checking buttons buttons.ts's, and the mapping of
 * failures to answers boundary.ts's.
 */
import type { LinkSet } from '../domain/links.ts';
import type { Logger } from 'pino';
import type { KolClient } from '../api/index.ts';
import { translator, type Locale, type T } from '../i18n/index.ts';
import type { Store } from '../store/index.ts';
import type { ChartPool } from '../domain/charts.ts';
import type { Ask, View } from '../domain/view.ts';
import { chatLocale } from './language.ts';
import type { SomeCommand, Caller, OwnerTools, Quotas, RawArgs } from './command.ts';
import { isOwnerCall, OWNER_COMMAND } from './owner.ts';
import { argsFor, splitCommand } from './parse.ts';
import { argsFromQuote, readsQuote } from './quote.ts';
import { createRateLimiter } from './ratelimit.ts';
import type { Registry } from './registry.ts';
import { labelled, type Outcome } from './boundary.ts';
import { createButtons } from './buttons.ts';
import { createRunner, senderOf, type RunOptions } from './run.ts';

export type { RunOptions } from './run.ts';

/** Commands (and button presses) per user per window: docs/security.md quotes it. */
export const DEFAULT_USER_LIMIT = { count: 10, windowMs: 30_000 } as const;

/**
 * Presses of a chat-settings panel (a page, a toggle, a value) that ask the
 * upstream nothing: a press is a store read and an edit, not a command's cost,
 * and an admin going through the panel presses far more often than they type.
 * Two a second for half a minute, which nobody reaches by hand, yet a script
 * pressing in a loop is stopped. A press that does ask the upstream (turning
 * alerts on reads the feed's head) counts as a command too, at that request.
 */
export const DEFAULT_PANEL_LIMIT = { count: 60, windowMs: 30_000 } as const;

export interface DispatcherOptions {
  readonly commands: Registry;
  readonly api: KolClient;
  readonly store: Store;
  readonly log: Logger;
  /** Commands per user per window; default 10 per 30 s. */
  readonly userLimit?: { readonly count: number; readonly windowMs: number };
  /** Settings-panel presses per user per window (DEFAULT_PANEL_LIMIT). */
  readonly panelLimit?: { readonly count: number; readonly windowMs: number };
  /** How long buttons keep working; default 30 min. */
  readonly actionTtlMs?: number;
  /** Upstream time budget per command; adapters may pass a shorter one. */
  readonly budgetMs?: number;
  readonly now?: () => number;
  /** Called once per command with its outcome, for metrics. */
  readonly onOutcome?: (command: string, outcome: Outcome, ms: number) => void;
  /** Lets `/alerts test` start delivery at once. */
  readonly kickAlerts?: () => void;
  /** Draws pictures (app.ts passes the process's shared pool: the core makes no view). */
  readonly charts: ChartPool;
  /** Chart, trading and safety links on token cards and test alerts; default: domain/links.ts's. */
  readonly links?: LinkSet;
  /**
   * The words of one language; default the catalogue's translator. The bench hands in
   * fixed strings here, to measure what the catalogue costs an English answer.
   */
  readonly translate?: (locale: Locale) => T;
  /**
   * The owner's console: run for the owners (OWNER_IDS) in a private chat only;
   * to anyone else its name is unknown, as if it did not exist.
   */
  readonly owner?: {
    readonly ids: ReadonlySet<string>;
    readonly command: SomeCommand;
    tools(caller: Caller): OwnerTools;
  };
  /** Subscriptions one server and one person may hold. */
  readonly quotas?: Quotas;
  /** The community pages' base URL once served (/web shows links under it). */
  readonly webUrl?: () => string | undefined;
}

/** What to do with a button that asks first: ask this, or show this refusal instead. */
export type Prompt = { readonly ask: Ask } | { readonly view: View };

export interface Dispatcher {
  readonly commands: Registry;
  /** The owners (platform:userId) and their console, for the adapters' per-owner menus; empty without OWNER_IDS. */
  readonly owners: ReadonlySet<string>;
  readonly ownerCommand: SomeCommand | undefined;
  /**
   * A typed line. Undefined when the text is not a command at all (chat noise),
   * or when its sender is over the limit and has already been told so.
   */
  text(text: string, caller: Caller, opts?: RunOptions): Promise<View | undefined>;
  /** A command with raw option values (Discord's typed options, parsed text). */
  run(name: string, raw: RawArgs, caller: Caller, opts?: RunOptions): Promise<View>;
  /** A pressed button, by the id the renderer put on it. */
  action(id: string, caller: Caller, opts?: RunOptions): Promise<View>;
  /**
   * A pressed button that asks for a value first (actions.ts `asks`): what to
   * ask, after the same checks a press gets (its message, its chat, the
   * caller's rights now). The answer then comes back through action().
   */
  prompt(id: string, caller: Caller, opts?: RunOptions): Promise<Prompt>;
  /**
   * True when run() would refuse this command before any upstream call (unknown,
   * invalid options, not allowed), so an adapter can answer at once instead of
   * deferring. Synchronous: `canManage` is what the platform already told us.
   */
  refusesAtOnce(name: string, raw: RawArgs, canManage: boolean): boolean;
  /**
   * Counts an action outside the commands (Discord's "Token card") against the
   * caller's command limit: undefined when it may go ahead, else the refusal to show.
   */
  admit(caller: Caller): Promise<View | undefined>;
  /** Gives a view built outside a command (automatic cards) its buttons' stored state, bound to the chat it goes to. */
  bind(view: View, chat: Pick<Caller, 'platform' | 'chatId' | 'threadId'>): Promise<View>;
}

export function createDispatcher(o: DispatcherOptions): Dispatcher {
  const now = o.now ?? Date.now;
  const limit = o.userLimit ?? DEFAULT_USER_LIMIT;
  const limiter = createRateLimiter(limit.count, limit.windowMs);
  const panel = o.panelLimit ?? DEFAULT_PANEL_LIMIT;
  const panelLimiter = createRateLimiter(panel.count, panel.windowMs);
  const translate = o.translate ?? translator;
  /** The command `name` means for this caller: the owner's console only for an owner in private. */
  const commandFor = (name: string, caller: Caller): SomeCommand | undefined =>
    name === OWNER_COMMAND && o.owner && isOwnerCall(o.owner.ids, caller) ? o.owner.command : o.commands.get(name);

  function localeOf(caller: Caller): Promise<Locale> {
    return chatLocale(o.store.languages, caller, (err) =>
      o.log.warn({ err }, 'chat language unreadable; using the caller’s'),
    );
  }

  const buttons = createButtons({
    store: o.store,
    log: o.log,
    commands: o.commands,
    actionTtlMs: o.actionTtlMs ?? 30 * 60_000,
    translate,
    localeOf,
  });
  const { execute, precheck, limitedView } = createRunner({
    ...o,
    now,
    budgetMs: o.budgetMs ?? 8_000,
    translate,
    limiter,
    panelLimiter,
    localeOf,
    bind: buttons.bind,
  });

  return {
    commands: o.commands,
    owners: o.owner?.ids ?? new Set(),
    ownerCommand: o.owner?.command,
    async text(text, caller, opts = {}) {
      const parsed = splitCommand(text);
      if (!parsed) return undefined;
      const command = commandFor(parsed.name, caller);
      // The console takes free text (a notice, a reason): its first word, then the rest as typed.
      if (command && command === o.owner?.command)
        return execute(command, parsed.name, () => ownerArgs(text), caller, opts, true);
      const words = () =>
        parsed.args.length === 0 && opts.quoted !== undefined && readsQuote(parsed.name)
          ? argsFromQuote(parsed.name, opts.quoted)
          : parsed.args;
      return execute(command, parsed.name, () => argsFor(command!, words()), caller, opts, true);
    },
    run(name, raw, caller, opts = {}) {
      return execute(commandFor(name, caller), name, () => raw, caller, opts);
    },
    async action(id, caller, opts = {}) {
      const found = await buttons.pressed(id, caller, opts);
      if ('view' in found) return found.view;
      const { stored, locale } = found;
      // An answer only for a button that asked: a forged one must not reach a command's options.
      const answer = stored.ask && opts.answer !== undefined ? { value: opts.answer } : {};
      // The language was read above: the command answers in it without a second store read.
      return execute(
        commandFor(stored.command, caller),
        stored.command,
        () => ({ ...stored.options, ...answer }),
        caller,
        { ...opts, pressed: true },
        false,
        locale,
      );
    },
    async prompt(id, caller, opts = {}) {
      const found = await buttons.pressed(id, caller, opts);
      if ('view' in found) return found;
      const { stored, locale } = found;
      const t = translate(locale);
      const command = o.commands.get(stored.command);
      // Asking for a value asks the upstream nothing: a settings panel's press, on the panel's limit.
      const verdict = (command?.chatSettings ? panelLimiter : limiter).take(senderOf(caller), now());
      if (verdict.waitMs > 0) return { view: limitedView(verdict.waitMs, locale) };
      // Rights are asked at the press, not when the panel was posted.
      if (command?.requires === 'manage' && !(await caller.canManage())) {
        const key = caller.platform === 'discord' ? 'errors.manageAlertsDiscord' : 'errors.manageAlertsGroup';
        return { view: labelled({ kind: 'error', message: t(key) }, t) };
      }
      if (!stored.ask) return { view: labelled({ kind: 'error', message: t('errors.buttonsExpired') }, t) };
      return { ask: stored.ask };
    },
    refusesAtOnce(name, raw, canManage) {
      try {
        return precheck(o.commands.get(name), name, () => raw).needsManager && !canManage;
      } catch {
        return true;
      }
    },
    async admit(caller) {
      const verdict = limiter.take(senderOf(caller), now());
      if (verdict.waitMs === 0) return undefined;
      return limitedView(verdict.waitMs, await localeOf(caller));
    },
    bind: (view, chat) => buttons.bind(view, chat),
  };
}

/** `/owner ban telegram:-100 spam and scams` as { action: 'ban', rest: 'telegram:-100 spam and scams' }. */
function ownerArgs(text: string): RawArgs {
  const body = text.trim().replace(/^\/\S+\s*/, '');
  const m = /^(\S+)\s*([\s\S]*)$/.exec(body);
  return m ? { action: m[1]!.toLowerCase(), ...(m[2] ? { rest: m[2] } : {}) } : {};
}
