/**
 * The one error boundary between the platforms and the commands. Adapters hand
 * it text, typed options or a pressed button; it always answers with a View,
 * whatever went wrong, and logs the detail that the user should not see.
 */
import type { LinkSet } from '../domain/links.ts';
import type { Logger } from 'pino';
import {
  ApiAbortedError,
  ApiBadRequestError,
  ApiNotFoundError,
  ApiSchemaError,
  ApiUnauthorizedError,
  ApiUnavailableError,
  ApiValidationError,
  type KolClient,
} from '../api/index.ts';
import { formats } from '../i18n/format.ts';
import { translator, type Locale, type T } from '../i18n/index.ts';
import type { Store } from '../store/index.ts';
import type { StoredAction } from '../store/pages.ts';
import type { ChartPool } from '../domain/charts.ts';
import type { Action, Ask, View } from '../domain/view.ts';
import { bindAction, chatKey, parseActionId } from './actions.ts';
import { chatLocale } from './language.ts';
import { suggest } from '../domain/chains.ts';
import type { AnyCommand, Caller, Capabilities, CommandContext, OwnerTools, Quotas, RawArgs } from './command.ts';
import { isOwnerCall, OWNER_COMMAND } from './owner.ts';
import { PermissionError, UserError } from './errors.ts';
import { argsFor, splitCommand, validate } from './parse.ts';
import { argsFromQuote, readsQuote } from './quote.ts';
import { createRateLimiter } from './ratelimit.ts';
import { cappedApi, senderKey } from './budget.ts';
import { countingUnreadable, withUnreadableNote } from './unreadable.ts';
import type { Registry } from './registry.ts';

/** The metric label of commands nobody defined: users' typos must not grow /metrics. */
export const UNKNOWN_COMMAND = 'unknown';

/** Commands (and button presses) per user per window: the README's Security section quotes it. */
export const DEFAULT_USER_LIMIT = { count: 10, windowMs: 30_000 } as const;

export interface DispatcherOptions {
  readonly commands: Registry;
  readonly api: KolClient;
  readonly store: Store;
  readonly log: Logger;
  /** Commands per user per window; default 10 per 30 s. */
  readonly userLimit?: { readonly count: number; readonly windowMs: number };
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
    readonly command: AnyCommand;
    tools(caller: Caller): OwnerTools;
  };
  /** Subscriptions one server and one person may hold. */
  readonly quotas?: Quotas;
}

export type Outcome = 'ok' | 'user_error' | 'denied' | 'limited' | 'not_found' | 'unavailable' | 'failed';

export interface RunOptions {
  readonly signal?: AbortSignal;
  readonly budgetMs?: number;
  readonly capabilities?: Capabilities;
  /** The text of the message a command replies to: `/token` or `/kol` with no argument reads it. */
  readonly quoted?: string;
  /**
   * For a pressed button: the button ids the pressed message shows, as the
   * platform delivered it. A forged press naming a button the message lacks is refused.
   */
  readonly buttonsOnMessage?: readonly string[];
  /**
   * The platform's name for this request (`telegram:<bot>:<update_id>`,
   * `discord:<interaction id>`). A takeover after a crash runs the same request
   * again: a command that changes chat settings then answers what it answered
   * the first time, from the store, instead of acting twice.
   */
  readonly requestId?: string;
  /**
   * The value a button asked for (a Discord modal's field, a Telegram forced
   * reply): the command gets it as its `value` option. Only buttons that ask take one.
   */
  readonly answer?: string;
}

/** What to do with a button that asks first: ask this, or show this refusal instead. */
export type Prompt = { readonly ask: Ask } | { readonly view: View };

export interface Dispatcher {
  readonly commands: Registry;
  /** The owners (platform:userId) and their console, for the adapters' per-owner menus; empty without OWNER_IDS. */
  readonly owners: ReadonlySet<string>;
  readonly ownerCommand: AnyCommand | undefined;
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

const ENGLISH = translator('en');

/** The answer to a button pressed where it was not made; short, and nothing is edited. */
export const FOREIGN_BUTTON = ENGLISH('errors.foreignButton');

/** A replay comes within a claim's lease or an interaction token's 15 min; an hour covers both. */
const REPLAY_KEPT_MS = 60 * 60_000;

const DEFAULT_CAPS: Capabilities = { pictures: false, buttons: true };

export function createDispatcher(o: DispatcherOptions): Dispatcher {
  const now = o.now ?? Date.now;
  const limit = o.userLimit ?? DEFAULT_USER_LIMIT;
  const limiter = createRateLimiter(limit.count, limit.windowMs);
  const actionTtl = o.actionTtlMs ?? 30 * 60_000;
  const translate = o.translate ?? translator;
  const budget = o.budgetMs ?? 8_000;
  /** The command `name` means for this caller: the owner's console only for an owner in private. */
  const commandFor = (name: string, caller: Caller): AnyCommand | undefined =>
    name === OWNER_COMMAND && o.owner && isOwnerCall(o.owner.ids, caller) ? o.owner.command : o.commands.get(name);

  /** With `quiet`, a sender already told about the limit gets undefined: no answer at all. */
  async function execute(
    command: AnyCommand | undefined,
    name: string,
    getRaw: () => RawArgs,
    caller: Caller,
    opts: RunOptions,
    quiet: true,
  ): Promise<View | undefined>;
  async function execute(
    command: AnyCommand | undefined,
    name: string,
    getRaw: () => RawArgs,
    caller: Caller,
    opts: RunOptions,
    quiet?: false,
    known?: Locale,
  ): Promise<View>;
  async function execute(
    command: AnyCommand | undefined,
    name: string,
    getRaw: () => RawArgs,
    caller: Caller,
    opts: RunOptions,
    quiet = false,
    known?: Locale,
  ): Promise<View | undefined> {
    const started = now();
    let outcome: Outcome = 'ok';
    let t = ENGLISH;
    // Ends the command's upstream calls once it has answered: a call it no longer awaits (a
    // nicety beside one that failed first) must not keep retrying against a struggling upstream.
    const answered = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, answered.signal]) : answered.signal;
    try {
      const verdict = limiter.take(senderOf(caller), started);
      if (verdict.waitMs > 0) outcome = 'limited';
      if (verdict.waitMs > 0 && quiet && verdict.toldAlready) return undefined;
      // The language first, so every answer below, errors included, speaks it.
      const locale = known ?? (await localeOf(caller));
      t = translate(locale);
      if (verdict.waitMs > 0) return limitedView(verdict.waitMs, locale);
      const checked = precheck(command, name, getRaw);
      if (checked.command.chatSettings && caller.botAbsent) throw new UserError(t('destinations.botAbsent'));
      if (checked.needsManager && !(await caller.canManage())) {
        throw new PermissionError(
          t(caller.platform === 'discord' ? 'errors.manageAlertsDiscord' : 'errors.manageAlertsGroup'),
        );
      }
      const once = opts.requestId !== undefined && checked.command.chatSettings ? opts.requestId : undefined;
      if (once !== undefined) {
        const kept = await o.store.replays.get<View>(once);
        if (kept) {
          o.log.info({ command: name, request: once }, 'a repeated request: its first answer, not a second run');
          return kept;
        }
      }
      const counted = countingUnreadable(cappedApi(o.api));
      const ctx: CommandContext = {
        api: counted.api,
        store: o.store,
        caller,
        locale,
        t,
        capabilities: opts.capabilities ?? DEFAULT_CAPS,
        signal,
        budgetMs: opts.budgetMs ?? budget,
        commands: o.commands,
        log: o.log,
        now,
        charts: o.charts,
        ...(o.kickAlerts ? { kickAlerts: o.kickAlerts } : {}),
        ...(o.links ? { links: o.links } : {}),
        ...(o.quotas ? { quotas: o.quotas } : {}),
        ...(o.owner && checked.command === o.owner.command ? { owner: o.owner.tools(caller) } : {}),
      };
      const view = labelled(
        await bindActions(
          withUnreadableNote(await checked.command.run(checked.input as never, ctx), counted.count(), t),
          caller,
        ),
        t,
      );
      if (once !== undefined) await keepAnswer(once, view);
      return view;
    } catch (err) {
      const { view, outcome: oc } = toErrorView(err, name, o.log, t);
      outcome = oc;
      return labelled(view, t);
    } finally {
      answered.abort(new Error('the command has answered'));
      const known = o.commands.has(name) || (command !== undefined && command === o.owner?.command);
      o.onOutcome?.(known ? name : UNKNOWN_COMMAND, outcome, now() - started);
    }
  }

  // People posting as a chat share one Telegram user; each such chat is its own sender.
  const senderOf = (caller: Caller) => senderKey(caller.platform, caller.userId, caller.senderChatId);

  function limitedView(waitMs: number, locale: Locale): View {
    const seconds = formats(locale).int(Math.ceil(waitMs / 1000));
    const t = translate(locale);
    return labelled({ kind: 'error', message: t('errors.rateLimited', { seconds }) }, t);
  }

  /**
   * Keeps what a settings command answered, for a replay of the same request.
   * Its effect is already stored: a failure here costs only a second run on a
   * replay (the gap a duplicate can come through), so it is logged, not thrown.
   */
  async function keepAnswer(request: string, view: View): Promise<void> {
    if (view.kind === 'error' || 'picture' in view) return;
    await o.store.replays
      .set(request, view, REPLAY_KEPT_MS)
      .catch((err: unknown) => o.log.warn({ err, request }, 'could not keep the answer for a replay'));
  }

  /** The checks run() makes before a command may run: it exists and its options are valid. Throws the answer. */
  function precheck(command: AnyCommand | undefined, name: string, getRaw: () => RawArgs) {
    if (!command) throw unknownCommand(name, o.commands);
    return { command, input: validate(command, getRaw()), needsManager: command.requires === 'manage' };
  }

  function localeOf(caller: Caller): Promise<Locale> {
    return chatLocale(o.store.languages, caller, (err) =>
      o.log.warn({ err }, 'chat language unreadable; using the caller’s'),
    );
  }

  /**
   * Stores each button's query, bound to the chat the answer goes to; if the
   * store is down the answer still goes out, without those buttons.
   */
  async function bindActions(view: View, chat: Pick<Caller, 'platform' | 'chatId' | 'threadId'>): Promise<View> {
    const actions = (view.actions ?? []) as Action[];
    const chats = [chatKey(chat)];
    try {
      await Promise.all(
        actions.map(async (a) => {
          if (!a.id)
            a.id = await bindAction(
              o.store.pages,
              { command: a.command, options: a.options, chats, ...(a.ask ? { ask: a.ask } : {}) },
              actionTtl,
            );
        }),
      );
      return view;
    } catch (err) {
      o.log.warn({ err }, 'buttons dropped: the store did not take their state');
      return { ...view, actions: actions.filter((a) => a.id) };
    }
  }

  /** The stored action behind a press, after the checks every press gets; or the answer to show instead. */
  async function pressed(
    id: string,
    caller: Caller,
    opts: RunOptions,
  ): Promise<{ stored: StoredAction; locale: Locale } | { view: View }> {
    const locale = await localeOf(caller);
    const t = translate(locale);
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
  }

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
      const found = await pressed(id, caller, opts);
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
        opts,
        false,
        locale,
      );
    },
    async prompt(id, caller, opts = {}) {
      const found = await pressed(id, caller, opts);
      if ('view' in found) return found;
      const { stored, locale } = found;
      const t = translate(locale);
      const verdict = limiter.take(senderOf(caller), now());
      if (verdict.waitMs > 0) return { view: limitedView(verdict.waitMs, locale) };
      const command = o.commands.get(stored.command);
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
    bind: (view, chat) => bindActions(view, chat),
  };
}

/** `/owner ban telegram:-100 spam and scams` as { action: 'ban', rest: 'telegram:-100 spam and scams' }. */
function ownerArgs(text: string): RawArgs {
  const body = text.trim().replace(/^\/\S+\s*/, '');
  const m = /^(\S+)\s*([\s\S]*)$/.exec(body);
  return m ? { action: m[1]!.toLowerCase(), ...(m[2] ? { rest: m[2] } : {}) } : {};
}

/** An error's own words ("Example:", "Error:") in the language of its message. */
export function labelled(view: View, t: T): View {
  return view.kind === 'error' && !view.labels
    ? { ...view, labels: { example: t('errors.exampleLabel'), error: t('errors.errorLabel') } }
    : view;
}

function unknownCommand(name: string, commands: Registry): UserError {
  const near = suggest(name, [...commands.keys()]);
  return new UserError(
    near
      ? { key: 'errors.unknownCommandNear', values: { name, near } }
      : { key: 'errors.unknownCommand', values: { name } },
    '/help',
  );
}

/** Maps any failure to a short, honest answer in `t`'s language; logs what the user should not see. */
export function toErrorView(err: unknown, command: string, log: Logger, t: T): { view: View; outcome: Outcome } {
  const say = (message: string): View => ({ kind: 'error', message });
  if (err instanceof PermissionError) return { view: say(err.localized(t)), outcome: 'denied' };
  if (err instanceof UserError) {
    return {
      view: { kind: 'error', message: err.localized(t), ...(err.example ? { example: err.example } : {}) },
      outcome: 'user_error',
    };
  }
  if (err instanceof ApiNotFoundError) return { view: say(t('errors.notFound')), outcome: 'not_found' };
  if (err instanceof ApiValidationError || err instanceof ApiBadRequestError) {
    log.warn({ command, err }, 'upstream refused parameters');
    // The upstream's own words stay as it wrote them (English): they name its parameters.
    return { view: say(t('errors.refused', { detail: err.message })), outcome: 'user_error' };
  }
  if (err instanceof ApiUnavailableError) {
    log.warn({ command, err }, 'upstream unavailable');
    return { view: say(t('errors.unavailable')), outcome: 'unavailable' };
  }
  if (err instanceof ApiUnauthorizedError) {
    log.error({ command, err }, 'upstream refused the API key');
    return { view: say(t('errors.unauthorized')), outcome: 'failed' };
  }
  if (err instanceof ApiSchemaError) {
    log.error({ command, err }, 'upstream answered in an unexpected shape');
    return { view: say(t('errors.schema')), outcome: 'failed' };
  }
  if (err instanceof ApiAbortedError || (err instanceof Error && err.name === 'AbortError')) {
    return { view: say(t('errors.aborted')), outcome: 'unavailable' };
  }
  log.error({ command, err }, 'command failed');
  return { view: say(t('errors.failed')), outcome: 'failed' };
}
