/**
 * Running one command behind the error boundary: the sender's limit, the chat's
 * language, the command's checks and rights, a repeated request answered from
 * its first answer, and whatever goes wrong turned into an answer (boundary.ts).
 * The dispatcher (dispatch.ts) decides which command a line, an option set or a
 * press means; this is what happens to it then, the same for all three.
 */
import type { Logger } from 'pino';
import type { LinkSet } from '../domain/links.ts';
import type { KolClient } from '../api/index.ts';
import { formats } from '../i18n/format.ts';
import { translator, type Locale, type T } from '../i18n/index.ts';
import type { Store } from '../store/index.ts';
import { WriteConflict } from '../store/subscriptions.ts';
import type { ChartPool } from '../domain/charts.ts';
import type { View } from '../domain/view.ts';
import { suggest } from '../domain/chains.ts';
import type { SomeCommand, Caller, Capabilities, CommandContext, OwnerTools, Quotas, RawArgs } from './command.ts';
import { PermissionError, typedPart, UserError } from './errors.ts';
import { validate } from './parse.ts';
import type { RateLimiter } from './ratelimit.ts';
import { cappedApi, senderKey } from './budget.ts';
import { countingUnreadable, withUnreadableNote } from './unreadable.ts';
import type { Registry } from './registry.ts';
import { labelled, toErrorView, type Outcome } from './boundary.ts';
import type { Buttons } from './buttons.ts';
import { createKolMemo } from './kolMemo.ts';

/** The metric label of commands nobody defined: users' typos must not grow /metrics. */
export const UNKNOWN_COMMAND = 'unknown';

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
  /** Set by the dispatcher for a pressed button: a settings panel's press is on the panel's limit. */
  readonly pressed?: boolean;
}

/** What running a command needs: the dispatcher's options (see DispatcherOptions) and its shared parts. */
export interface RunnerOptions {
  readonly commands: Registry;
  readonly api: KolClient;
  readonly store: Store;
  readonly log: Logger;
  readonly charts: ChartPool;
  readonly kickAlerts?: () => void;
  readonly links?: LinkSet;
  readonly quotas?: Quotas;
  readonly webUrl?: () => string | undefined;
  readonly owner?: { readonly command: SomeCommand; tools(caller: Caller): OwnerTools };
  readonly onOutcome?: (command: string, outcome: Outcome, ms: number) => void;
  readonly now: () => number;
  /** Upstream time budget per command, unless the run says otherwise. */
  readonly budgetMs: number;
  readonly translate: (locale: Locale) => T;
  /** Commands per sender, shared with presses and admit(). */
  readonly limiter: RateLimiter;
  /** Presses of chat-settings commands per sender (dispatch.ts DEFAULT_PANEL_LIMIT). */
  readonly panelLimiter: RateLimiter;
  readonly localeOf: (caller: Caller) => Promise<Locale>;
  readonly bind: Buttons['bind'];
}

const ENGLISH = translator('en');

/** A replay comes within a claim's lease or an interaction token's 15 min; an hour covers both. */
const REPLAY_KEPT_MS = 60 * 60_000;

const DEFAULT_CAPS: Capabilities = { pictures: false, buttons: true };

/** People posting as a chat share one Telegram user; each such chat is its own sender. */
export const senderOf = (caller: Caller) => senderKey(caller.platform, caller.userId, caller.senderChatId);

/** The runner: execute(), and the checks and the limit answer the dispatcher also gives presses. */
export function createRunner(o: RunnerOptions) {
  const { now, limiter, panelLimiter, translate, localeOf } = o;
  const budget = o.budgetMs;
  const kolMemo = createKolMemo();

  /** With `quiet`, a sender already told about the limit gets undefined: no answer at all. */
  async function execute(
    command: SomeCommand | undefined,
    name: string,
    getRaw: () => RawArgs,
    caller: Caller,
    opts: RunOptions,
    quiet: true,
  ): Promise<View | undefined>;
  async function execute(
    command: SomeCommand | undefined,
    name: string,
    getRaw: () => RawArgs,
    caller: Caller,
    opts: RunOptions,
    quiet?: false,
    known?: Locale,
  ): Promise<View>;
  async function execute(
    command: SomeCommand | undefined,
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
      // A settings panel's press is a store read and an edit: its own limit; its upstream requests, if any, count below.
      const onPanel = opts.pressed === true && command?.chatSettings === true;
      const verdict = (onPanel ? panelLimiter : limiter).take(senderOf(caller), started);
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
      const capped = cappedApi(o.api);
      const counted = countingUnreadable(onPanel ? chargedOnce(capped, () => chargeCommand(caller, locale)) : capped);
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
        kolMemo,
        charts: o.charts,
        ...(o.kickAlerts ? { kickAlerts: o.kickAlerts } : {}),
        ...(o.links ? { links: o.links } : {}),
        ...(o.quotas ? { quotas: o.quotas } : {}),
        ...(o.webUrl ? { webUrl: o.webUrl } : {}),
        ...(o.owner && checked.command === o.owner.command ? { owner: o.owner.tools(caller) } : {}),
      };
      const view = labelled(
        await o.bind(
          withUnreadableNote(
            await againOnConflict(() => checked.command.run(checked.input as never, ctx)),
            counted.count(),
            t,
          ),
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

  /** A panel press that asks the upstream counts as a command then: refused, the press changes nothing. */
  function chargeCommand(caller: Caller, locale: Locale): void {
    const verdict = limiter.take(senderOf(caller), now());
    if (verdict.waitMs === 0) return;
    const seconds = formats(locale).int(Math.ceil(verdict.waitMs / 1000));
    throw new UserError(translate(locale)('errors.rateLimited', { seconds }));
  }

  /** The answer to a sender over the limit, in `locale`. */
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

  /** The checks a command gets before it may run: it exists and its options are valid. Throws the answer. */
  function precheck(command: SomeCommand | undefined, name: string, getRaw: () => RawArgs) {
    if (!command) throw unknownCommand(name, o.commands);
    return { command, input: validate(command, getRaw()), needsManager: command.requires === 'manage' };
  }

  return { execute, precheck, limitedView };
}

function unknownCommand(name: string, commands: Registry): UserError {
  const near = suggest(name, [...commands.keys()]);
  return new UserError(
    near
      ? { key: 'errors.unknownCommandNear', values: { name: typedPart(name), near } }
      : { key: 'errors.unknownCommand', values: { name: typedPart(name) } },
    '/help',
  );
}

/** Runs of a command whose settings another instance changed meanwhile, before it fails like an outage. */
const CONFLICT_RUNS = 5;

/**
 * A command that changes a subscription writes it only if nobody wrote it since its read
 * (store/subscriptions.ts replace): when another instance did, it runs again from a fresh
 * read, so both changes are kept.
 */
async function againOnConflict<V>(run: () => Promise<V>): Promise<V> {
  for (let n = 1; ; n++) {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof WriteConflict) || n >= CONFLICT_RUNS) throw err;
    }
  }
}

/** `api` whose first upstream request calls `charge` first (which may throw: the request is then not made). */
function chargedOnce<A extends object>(api: A, charge: () => void): A {
  let charged = false;
  return new Proxy(api, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || !prop.startsWith('get')) return value;
      return (...args: unknown[]) => {
        if (!charged) {
          try {
            charge();
          } catch (err) {
            return Promise.reject(err);
          }
          charged = true;
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
