/**
 * Automatic cards: a message with token references gets one answer with a
 * compact card per token, without any command. Platform-neutral; adapters hand
 * it a message's text and post what it returns as a threaded reply.
 *
 * It never speaks uninvited about a problem: a reference the service does not
 * know, an upstream fault, a store fault, a token in cooldown or a chat over
 * its cap all give `undefined` (logged and counted, never posted).
 */
import type { Logger } from 'pino';
import type { KolClient } from '../api/index.ts';
import type { Store } from '../store/index.ts';
import type { Kv } from '../store/strict.ts';
import type { View } from '../domain/view.ts';
import type { Platform } from './command.ts';
import { parseDuration } from './duration.ts';
import { findTokenRefs, type TokenRef } from './detect.ts';
import { toErrorView, type Outcome } from './boundary.ts';
import { pickLocale, translator, type T } from '../i18n/index.ts';
import { findOnChains, type FoundToken } from './lookup.ts';
import { createRateLimiter } from './ratelimit.ts';
import { refsCost, refsWithin, type LookupBudget } from './budget.ts';
import { formats } from '../i18n/format.ts';
import { chatLocale } from './language.ts';
import { addressKey, sameAddress } from '../domain/chains.ts';
import { destinationKey } from '../domain/destination.ts';
import type { MemberRef } from '../store/calls.ts';
import { boardOf, recordCalls, type Recorded } from './membercalls.ts';

export interface AutoCardSettings {
  readonly enabled: boolean;
  readonly cooldownMs: number;
}

export const DEFAULT_COOLDOWN_MS = 10 * 60_000;
export const MAX_COOLDOWN_MS = 24 * 3_600_000;
export const DEFAULT_SETTINGS: AutoCardSettings = { enabled: true, cooldownMs: DEFAULT_COOLDOWN_MS };
/** References read per message; the lookups are then bounded by MAX_REQUESTS_PER_LOOKUP (budget.ts). */
export const MAX_LOOKUPS = 5;
/** Card answers per chat per minute: a raid of pastes must not make the bot a spammer. Only answers shown count. */
export const DEFAULT_PER_MINUTE = 6;
/**
 * Upstream requests per chat per minute for references the service did not know:
 * wallets and random base58 cost lookups but draw no card, so they have their
 * own bound instead of taking the card slots of a real token.
 */
export const UNKNOWN_REQUESTS_PER_MINUTE = 20;

/** "10m" -> ms within the allowed range; undefined when invalid. */
export function parseCooldown(text: string): number | undefined {
  const ms = parseDuration(text);
  return ms !== undefined && ms <= MAX_COOLDOWN_MS ? ms : undefined;
}

export function cooldownText(ms: number): string {
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${Math.round(ms / 60_000)}m`;
}

/**
 * Per-destination settings, kept with the other state (so every instance sees the same).
 * A forum topic without its own speaks its chat's.
 */
export function autoCardSettings(store: Pick<Store, 'autocard'>) {
  const kv: Kv = store.autocard;
  const key = (platform: Platform, chatId: string, threadId?: string) =>
    `set:${destinationKey({ platform, chatId, threadId })}`;
  return {
    async get(platform: Platform, chatId: string, threadId?: string): Promise<AutoCardSettings> {
      const v =
        (threadId ? await kv.get<Partial<AutoCardSettings>>(key(platform, chatId, threadId)) : undefined) ??
        (await kv.get<Partial<AutoCardSettings>>(key(platform, chatId)));
      return {
        enabled: v?.enabled ?? DEFAULT_SETTINGS.enabled,
        cooldownMs: v?.cooldownMs ?? DEFAULT_SETTINGS.cooldownMs,
      };
    },
    put: (platform: Platform, chatId: string, s: AutoCardSettings, threadId?: string) =>
      kv.set(key(platform, chatId, threadId), s),
  };
}

export interface Where {
  readonly platform: Platform;
  readonly chatId: string;
  /** The forum topic it was posted in: settings and cooldowns are the topic's, the cap the chat's. */
  readonly threadId?: string;
  /**
   * The language of whoever asked (Discord's "Token card", a Telegram paste's sender), or
   * of the place (a Discord server's primary language); a chat's /language setting wins.
   */
  readonly locale?: string;
  /** Who pays the lookups (senderKey in budget.ts); unlimited when absent (the console). */
  readonly sender?: string;
  /** The person who posted, where a call may be credited (not a bot, not an anonymous or channel post). */
  readonly member?: MemberRef;
  /** Their message, which a recorded call points to. */
  readonly messageId?: string;
}

export interface AutoCardsOptions {
  readonly api: KolClient;
  readonly store: Store;
  readonly log: Logger;
  readonly now?: () => number;
  readonly perMinute?: number;
  /** Upstream budget for one message's lookups. */
  readonly budgetMs?: number;
  /** The answer for the tokens found (views/cards/tokenCompact.ts; given by app.ts: the core makes no view). */
  readonly cards: (found: readonly FoundToken[], t: T) => View;
  /** Adds the buttons' stored state (the dispatcher's one way to bind a button). */
  readonly bind: (view: View, chat: Where) => Promise<View>;
  readonly onOutcome?: (command: string, outcome: Outcome, ms: number) => void;
  /** Each sender's lookup budget, shared with inline mode and autocomplete. */
  readonly lookups?: LookupBudget;
  /** Members' calls where a chat's /callboard is on: their follow-up points, and the line a card gains. */
  readonly memberCalls?: {
    note(recorded: readonly Recorded[], t: T, now: number): View | undefined;
  };
}

/** What `explicit` decided before any upstream call: a private refusal, or the lookup to run. */
export type Explicit = { readonly refused: View } | { run(signal: AbortSignal): Promise<View> };

export interface AutoCards {
  /** The answer to a message, or undefined to stay silent. Never rejects. */
  forText(text: string, where: Where, signal?: AbortSignal): Promise<View | undefined>;
  /**
   * Someone asked for the cards of a message (Discord's "Token card"): no
   * settings or cooldown, but the chat's card cap and the sender's lookup
   * budget; always an answer, a short error included. A refusal comes before
   * any upstream call, so the adapter can show it privately at once.
   */
  explicit(text: string, where: Where): Promise<Explicit>;
}

/** Name under which outcomes are counted (metrics) and logged. */
const NAME = 'autocard';

export function createAutoCards(o: AutoCardsOptions): AutoCards {
  const now = o.now ?? Date.now;
  /** Card answers shown per chat (the cap). */
  const shown = createRateLimiter(o.perMinute ?? DEFAULT_PER_MINUTE, 60_000);
  const unknown = createRateLimiter(UNKNOWN_REQUESTS_PER_MINUTE, 60_000);
  const chatOf = (w: Where) => `${w.platform}:${w.chatId}`;
  /** The sender's share, charged before the lookup; true when it may go ahead. */
  const spend = (w: Where, cost: number) =>
    !o.lookups || !w.sender || o.lookups.spend(w.sender, cost, now()).waitMs === 0;
  const settings = autoCardSettings(o.store);
  const cooldowns: Kv = o.store.autocard;
  // Where members' calls are on, each member has their own cooldown: a second member pasting a
  // token learns who called it first, and one member repeating it stays quiet.
  const cdKeyOf = (w: Where, address: string, board: boolean) =>
    `cd:${destinationKey(w)}:${addressKey(address)}${board && w.member ? `:${w.member.id}` : ''}`;

  /** The chat's language, else the asker's; a store fault costs only the language. */
  async function textOf(w: Where): Promise<T> {
    return translator(await chatLocale(o.store.languages, w));
  }

  /** Each reference looked up on its chains at once; a fault is kept (to log or show), not thrown. */
  async function lookupAll(
    refs: readonly TokenRef[],
    signal: AbortSignal,
  ): Promise<{ found: FoundToken[]; fault: unknown }> {
    let fault: unknown;
    const call = { signal, budgetMs: o.budgetMs ?? 8_000 };
    const lists = await Promise.all(
      refs.map((r) =>
        findOnChains(o.api, r.address, r.chains, call).catch((err: unknown) => {
          fault = err;
          return [] as FoundToken[];
        }),
      ),
    );
    return { found: lists.flat(), fault };
  }

  const sameRef = (f: FoundToken, address: string) => sameAddress(f.chain, f.item.token.address, address);

  /** Tokens being looked up right now per chat: two pastes arriving together must not both pass the cooldown. */
  const pending = new Set<string>();

  async function answer(text: string, w: Where, signal: AbortSignal): Promise<{ view?: View; outcome: Outcome }> {
    // Every reference, so the card can say how many it leaves out; lookups stay bounded below.
    const refs = findTokenRefs(text, Number.MAX_SAFE_INTEGER);
    if (!refs.length) return { outcome: 'ok' };
    const s = await settings.get(w.platform, w.chatId, w.threadId);
    const board =
      o.memberCalls && w.member ? (await o.store.members.settings(boardOf(w.platform, w.chatId))).on : false;
    if (!s.enabled && !board) return { outcome: 'ok' };
    const cdKey = (w: Where, address: string) => cdKeyOf(w, address, board);
    const cooling = await cooldowns.getMany<number>(refs.map((r) => cdKey(w, r.address)));
    const fresh = refs.filter((r, i) => cooling[i] === undefined && !pending.has(cdKey(w, r.address)));
    const first = refsWithin(fresh.slice(0, MAX_LOOKUPS));
    if (!first.length) return { outcome: 'limited' };
    const cost = refsCost(first);
    // A card could be shown, or a call recorded: the credit never waits for the card cap (a busy chat
    // still credits its first caller). Unknown lookups and the sender's budget bound the cost either way.
    const showable = s.enabled && shown.fits(chatOf(w), now());
    if ((!showable && !board) || !unknown.fits(chatOf(w), now(), cost) || !spend(w, cost))
      return { outcome: 'limited' };
    const keys = fresh.map((r) => cdKey(w, r.address));
    for (const k of keys) pending.add(k);
    try {
      const { found, fault } = await lookupAll(first, signal);
      const misses = first.filter((r) => !found.some((f) => sameRef(f, r.address)));
      if (misses.length) unknown.take(chatOf(w), now(), refsCost(misses));
      // With the board on, the references past one lookup's bound are calls too: looked up in further
      // bounded lookups while the sender's budget lasts (each paid before it runs).
      const more = board ? await lookupRest(fresh.slice(first.length), w, signal) : [];
      if (fault)
        o.log.warn(
          { err: fault instanceof Error ? { name: fault.name, message: fault.message } : String(fault) },
          'autocard: lookup failed (silent)',
        );
      if (!found.length && !more.length) return { outcome: fault ? 'unavailable' : 'not_found' };
      // The call is recorded whatever is shown: the card below may be capped, the credit is not.
      const recorded =
        board && o.memberCalls && w.member
          ? await recordCalls(
              o.store,
              [...found, ...more],
              { platform: w.platform, chatId: w.chatId, messageId: w.messageId ?? '', member: w.member },
              now(),
            )
          : [];
      if (!s.enabled || !found.length) return { outcome: 'ok' };
      // Only a card shown takes a slot; past the cap the calls above stand and the chat hears nothing more.
      if (shown.take(chatOf(w), now()).waitMs > 0) return { outcome: 'limited' };
      // Only what was shown cools down: an unknown paste stays cheap to retry (the client caches misses).
      await Promise.all(found.map((f) => cooldowns.set(cdKey(w, f.item.token.address), now(), s.cooldownMs)));
      const t = await textOf(w);
      const onCard = recorded.filter((r) => found.includes(r.found));
      const note = onCard.length ? o.memberCalls?.note(onCard, t, now()) : undefined;
      const calledMore = recorded.filter((r) => !found.includes(r.found) && r.outcome.kind === 'recorded').length;
      const rest = leftOutNote(fresh.length - first.length, calledMore, t);
      return { view: await o.bind(withNote(withNote(o.cards(found, t), note), rest), w), outcome: 'ok' };
    } finally {
      for (const k of keys) pending.delete(k);
    }
  }

  /** The tokens among `refs`, a bounded lookup at a time while the sender can pay for the next. */
  async function lookupRest(refs: readonly TokenRef[], w: Where, signal: AbortSignal): Promise<FoundToken[]> {
    const out: FoundToken[] = [];
    for (let left = refs; left.length; ) {
      const batch = refsWithin(left);
      if (!batch.length || !spend(w, refsCost(batch))) break;
      const { found } = await lookupAll(batch, signal);
      const misses = batch.filter((r) => !found.some((f) => sameRef(f, r.address)));
      if (misses.length) unknown.take(chatOf(w), now(), refsCost(misses));
      out.push(...found);
      left = left.slice(batch.length);
    }
    return out;
  }

  async function explicit(text: string, w: Where): Promise<Explicit> {
    const t = await textOf(w);
    const all = findTokenRefs(text, Number.MAX_SAFE_INTEGER);
    const refs = refsWithin(all.slice(0, MAX_LOOKUPS));
    if (!refs.length) return { refused: { kind: 'error', message: t('lookup.messageCommandNothing') } };
    const wait = (ms: number) => formats(w.locale ? pickLocale(w.locale) : 'en').int(Math.ceil(ms / 1000));
    if (!shown.fits(chatOf(w), now())) {
      const waitMs = shown.take(chatOf(w), now()).waitMs;
      return { refused: { kind: 'error', message: t('lookup.channelCardsBusy', { seconds: wait(waitMs) }) } };
    }
    const spent = o.lookups && w.sender ? o.lookups.spend(w.sender, refsCost(refs), now()) : undefined;
    if (spent && spent.waitMs > 0)
      return { refused: { kind: 'error', message: t('errors.rateLimited', { seconds: wait(spent.waitMs) }) } };
    return {
      run: async (signal) => {
        const { found, fault } = await lookupAll(refs, signal);
        if (found.length) {
          shown.take(chatOf(w), now());
          return o.bind(withNote(o.cards(found, t), leftOutNote(all.length - refs.length, 0, t)), w);
        }
        return fault
          ? toErrorView(fault, NAME, o.log, t).view
          : { kind: 'error', message: t('lookup.messageCommandUnknown') };
      },
    };
  }

  return {
    explicit,
    async forText(text, w, signal = new AbortController().signal) {
      const started = now();
      try {
        const { view, outcome } = await answer(text, w, signal);
        if (view || outcome !== 'ok') o.onOutcome?.(NAME, outcome, now() - started);
        return view;
      } catch (err) {
        // The store or a view failed: silence in the chat, the detail in the log.
        o.log.warn(
          { err: err instanceof Error ? { name: err.name, message: err.message } : String(err) },
          'autocard: failed (silent)',
        );
        o.onOutcome?.(NAME, 'failed', now() - started);
        return undefined;
      }
    },
  };
}

/** What the card leaves out of a paste: how many references, and how many of them became calls. */
export function leftOutNote(leftOut: number, called: number, t: T): View | undefined {
  if (leftOut <= 0) return undefined;
  const lines = [t('lookup.leftOut', { count: leftOut })];
  if (called > 0) lines.push(t('board.recordedMore', { count: called }));
  return { kind: 'text', text: lines.join('\n') };
}

/** The card with the calls' line under it. */
export function withNote(view: View, note: View | undefined): View {
  if (note?.kind !== 'text' || view.kind !== 'text') return view;
  const spans = (v: View & { kind: 'text' }) => (typeof v.text === 'string' ? [v.text] : [...v.text]);
  return {
    ...view,
    text: [...spans(view), '\n\n', ...spans(note)],
    ...(note.actions?.length ? { actions: [...(view.actions ?? []), ...note.actions] } : {}),
  };
}
