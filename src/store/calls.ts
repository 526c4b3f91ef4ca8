/**
 * Calls: every alert a platform accepted, per destination, with the token's
 * market cap at alert time and what it did since. Follow-ups are due in a queue
 * kept here (not in memory), so they survive restarts and leader changes.
 *
 * Layout on the key-value store (written by the watcher's lease holder only):
 *   c:<callId>    one call (its id is the alert's outbox entry id), expires after the retention
 *   d:<subId>     the ids of a destination's calls, oldest first (pruned as they expire)
 *   t:<tokenKey>  the ids of the token's calls that still have follow-ups due
 *   due           tokenKey -> earliest due time of those calls: one small map, one key
 *   k:<tokenKey>  the ids of every kept call of the token, newest last (at most TOKEN_CALLS_MAX): later
 *                 sightings of the token raise their peak after their follow-ups are done too
 * Members' own calls (membercalls.ts) are calls too, under the same c:, t: and due
 * keys, so one follow-up round serves both; their other keys are listed there.
 */
import { type ChainId, tokenKeyOf } from '../domain/chains.ts';
import { keyedTurns } from '../domain/turns.ts';
import type { AlertContent } from './outbox.ts';
import type { Kv } from './strict.ts';
import type { DestinationPlatform } from './subscriptions.ts';

export interface CallSample {
  readonly at: number;
  readonly marketCap: number;
  /** The follow-up point (minutes after the alert) this sample answered, if any. */
  readonly point?: number;
  /** Taken later than its point (the bot was down): the edit says so. */
  readonly late?: boolean;
}

export interface Call {
  /** The alert's outbox entry id: one call per (alert, destination). */
  readonly id: string;
  readonly subId: string;
  readonly platform: DestinationPlatform;
  readonly chatId: string;
  /** The forum topic the alert went to; absent: the chat itself. Edits need only the chat and message. */
  readonly threadId?: string;
  readonly messageId: string;
  readonly token: { readonly chain: ChainId; readonly address: string; readonly symbol: string; readonly name: string };
  /** Lower-case usernames of every KOL the alert names (a merged alert is one call). */
  kols: string[];
  tweetIds: string[];
  readonly at: number;
  /** At alert time (operation 2); null when it could not be read: then no multiple is shown. */
  readonly marketCap: number | null;
  readonly liquidity: number | null;
  /** Follow-up points in minutes after the alert, ascending; empty: none. */
  readonly points: readonly number[];
  /** Index into points of the next follow-up. */
  next: number;
  samples: CallSample[];
  /** Highest market cap seen at any sample, including later sightings by the watcher. */
  peak: number | null;
  /** Why follow-ups stopped early (the message was deleted). */
  ended?: string;
  /** The alert as sent, so a follow-up edit shows it unchanged with its new line; absent on a member's call. */
  content?: Extract<AlertContent, { kind: 'alert' }>;
  /**
   * An alert sent in a burst message with others (schema 11): the calls of that message in order, this one
   * included, and the follow-up points, kept here rather than in `points` (left empty) so that older code,
   * which would edit the message with this one alert, never finds them due. Its follow-ups edit the message
   * with every token's move since. Absent: an alert of its own.
   */
  readonly burst?: { readonly calls: readonly string[]; readonly points: readonly number[] };
  /** A member's own call (/callboard): who made it; `subId` is then the board, `messageId` their message. */
  readonly member?: MemberRef;
}

/** Who made a member's call: platform id, the name shown, and the @username where there is one. */
export interface MemberRef {
  readonly id: string;
  readonly name: string;
  /** Lower-case username without "@", to find the member by @name (Telegram cannot look one up). */
  readonly handle?: string;
}

/** The call's token key (tokenKeyOf: EVM addresses are case-insensitive). */
const callTokenKey = ({ token: { chain, address } }: Pick<Call, 'token'>): string => tokenKeyOf(chain, address);

/** The call's follow-up points (minutes after it, ascending): its own, or its burst message's. */
export const pointsOf = (c: Pick<Call, 'points' | 'burst'>): readonly number[] =>
  c.points.length ? c.points : (c.burst?.points ?? c.points);

/** When the call's next follow-up is due; undefined when none is. */
export function nextDue(c: Call): number | undefined {
  const points = pointsOf(c);
  if (c.ended || c.marketCap === null || c.next >= points.length) return undefined;
  return c.at + points[c.next]! * 60_000;
}

export interface CallStore {
  /** Records a call once (a repeat of the same id changes nothing); queues its follow-ups. */
  record(call: Call): Promise<boolean>;
  get(id: string): Promise<Call | undefined>;
  getMany(ids: readonly string[]): Promise<(Call | undefined)[]>;
  /** Writes a changed call and moves its token in the due queue. */
  save(calls: readonly Call[]): Promise<void>;
  /** A destination's calls since `from` (epoch ms), oldest first. */
  list(subId: string, from: number): Promise<Call[]>;
  /** Forgets a destination's history (/calls clear). */
  clear(subId: string): Promise<number>;
  /** Tokens with a follow-up due at or before `now`, earliest first. */
  dueTokens(now: number): Promise<{ tokenKey: string; dueAt: number }[]>;
  /** The token's calls that still have follow-ups. */
  openCalls(tokenKey: string): Promise<Call[]>;
  /** Recomputes these tokens' due times from their calls (a round found an entry ahead of them). */
  reindex(tokenKeys: readonly string[]): Promise<void>;
  /** Every kept call of the token, follow-ups done or not (those recorded since schema version 13). */
  tokenCalls(tokenKey: string): Promise<Call[]>;
}

/** Calls of one token whose peak a sighting may raise: the newest; a token alerted in 2,000 places a month is rare. */
export const TOKEN_CALLS_MAX = 2_000;

/** How long an index entry may name a missing call before it is dropped: far past record()'s gap between its writes. */
export const MISSING_GRACE_MS = 60_000;

export function createCallStore(kv: Kv, o: { retentionMs: number; now?: () => number }): CallStore {
  const now = o.now ?? Date.now;
  // One writer (the lease holder), but many tasks in it: read-modify-write of a list key is serialized per key.
  const locked = keyedTurns();
  const ttl = (c: Call) => Math.max(1, c.at + o.retentionMs - now());
  // record() writes a call's indexes first and the call last. A read in between (a /calls while
  // the alert goes out, or another instance's read) finds an entry with no call yet: dropping it
  // then would lose the call from its indexes for good. So an entry leaves an index only once
  // its call has been missing for a while (an expired call, or a record cut off by a crash).
  const missingSince = new Map<string, number>();
  /** The index's ids to keep, or undefined when nothing is to be dropped. */
  function prune(index: string, ids: readonly string[], calls: readonly (Call | undefined)[]): string[] | undefined {
    const t = now();
    const keep = ids.filter((id, i) => {
      const seen = `${index} ${id}`;
      const since = missingSince.get(seen);
      if (calls[i] !== undefined) {
        if (since !== undefined) missingSince.delete(seen);
        return true;
      }
      if (since === undefined) missingSince.set(seen, t);
      else if (t - since >= MISSING_GRACE_MS) {
        missingSince.delete(seen);
        return false;
      }
      return true;
    });
    return keep.length === ids.length ? undefined : keep;
  }
  /** Writes what `prune` kept back to the index (gone when empty). */
  async function rewrite(index: string, keep: string[], ttlMs?: number): Promise<void> {
    if (keep.length) await kv.set(index, keep, ttlMs);
    else await kv.delete(index);
  }

  async function addTo(key: string, id: string, ttlMs?: number): Promise<void> {
    await locked(key, async () => {
      const ids = (await kv.get<string[]>(key)) ?? [];
      if (!ids.includes(id)) await kv.set(key, [...ids, id], ttlMs);
    });
  }

  /** Recomputes the token's earliest due time from its open calls. */
  async function reindex(tokenKey: string): Promise<void> {
    await locked(`t:${tokenKey}`, async () => {
      const ids = (await kv.get<string[]>(`t:${tokenKey}`)) ?? [];
      const calls = await kv.getMany<Call>(ids.map((id) => `c:${id}`));
      const open = calls.filter((c): c is Call => c !== undefined && nextDue(c) !== undefined);
      const dueAt = open.length ? Math.min(...open.map((c) => nextDue(c)!)) : undefined;
      if (open.length)
        await kv.set(
          `t:${tokenKey}`,
          open.map((c) => c.id),
        );
      else await kv.delete(`t:${tokenKey}`);
      await locked('due', async () => {
        const due = (await kv.get<Record<string, number>>('due')) ?? {};
        if (dueAt === undefined) delete due[tokenKey];
        else due[tokenKey] = dueAt;
        await kv.set('due', due);
      });
    });
  }

  return {
    async record(call) {
      // The indexes first, the call last: a crash anywhere in between leaves an index entry ahead
      // of its call (skipped, and repaired by the next round), never a call no index finds.
      const fresh = (await kv.get(`c:${call.id}`)) === undefined;
      // A member's call is on its board's index instead (membercalls.ts), not in the KOL scorecard.
      if (!call.member) await addTo(`d:${call.subId}`, call.id);
      const dueAt = nextDue(call);
      if (dueAt !== undefined) {
        await addTo(`t:${callTokenKey(call)}`, call.id);
        await locked('due', async () => {
          const due = (await kv.get<Record<string, number>>('due')) ?? {};
          const key = callTokenKey(call);
          if (due[key] === undefined || due[key] > dueAt) await kv.set('due', { ...due, [key]: dueAt });
        });
      }
      await locked(`k:${callTokenKey(call)}`, async () => {
        const key = `k:${callTokenKey(call)}`;
        const ids = (await kv.get<string[]>(key)) ?? [];
        if (!ids.includes(call.id)) await kv.set(key, [...ids, call.id].slice(-TOKEN_CALLS_MAX), o.retentionMs);
      });
      if (fresh) await kv.set(`c:${call.id}`, call, ttl(call));
      return fresh;
    },
    async tokenCalls(tokenKey) {
      const key = `k:${tokenKey}`;
      return locked(key, async () => {
        const ids = (await kv.get<string[]>(key)) ?? [];
        const calls = await kv.getMany<Call>(ids.map((id) => `c:${id}`));
        // Expired calls leave the list as it is read, as the destinations' lists do.
        const keep = prune(key, ids, calls);
        if (keep) await rewrite(key, keep, o.retentionMs);
        return calls.filter((c): c is Call => c !== undefined);
      });
    },
    get: (id) => kv.get<Call>(`c:${id}`),
    getMany: (ids) => kv.getMany<Call>(ids.map((id) => `c:${id}`)),
    async reindex(tokenKeys) {
      for (const t of tokenKeys) await reindex(t);
    },
    // The calls first, then their index: the index can only be left earlier than the calls (a
    // crash in between), which a round repairs instead of fetching.
    async save(calls) {
      for (let i = 0; i < calls.length; i += 500)
        await Promise.all(calls.slice(i, i + 500).map((c) => kv.set(`c:${c.id}`, c, ttl(c))));
      for (const tokenKey of new Set(calls.map(callTokenKey))) await reindex(tokenKey);
    },
    async list(subId, from) {
      return locked(`d:${subId}`, async () => {
        const ids = (await kv.get<string[]>(`d:${subId}`)) ?? [];
        const calls = await kv.getMany<Call>(ids.map((id) => `c:${id}`));
        // Expired calls leave the index as it is read: it stays as small as the retention allows.
        const keep = prune(`d:${subId}`, ids, calls);
        if (keep) await rewrite(`d:${subId}`, keep);
        return calls.filter((c): c is Call => c !== undefined && c.at >= from);
      });
    },
    async clear(subId) {
      return locked(`d:${subId}`, async () => {
        const ids = (await kv.get<string[]>(`d:${subId}`)) ?? [];
        const calls = (await kv.getMany<Call>(ids.map((id) => `c:${id}`))).filter((c): c is Call => c !== undefined);
        await Promise.all(ids.map((id) => kv.delete(`c:${id}`)));
        await kv.delete(`d:${subId}`);
        for (const t of new Set(calls.map(callTokenKey))) await reindex(t);
        return calls.length;
      });
    },
    async dueTokens(at) {
      const due = (await kv.get<Record<string, number>>('due')) ?? {};
      return Object.entries(due)
        .filter(([, d]) => d <= at)
        .sort((a, b) => a[1] - b[1])
        .map(([tokenKey, dueAt]) => ({ tokenKey, dueAt }));
    },
    async openCalls(tokenKey) {
      const ids = (await kv.get<string[]>(`t:${tokenKey}`)) ?? [];
      return (await kv.getMany<Call>(ids.map((id) => `c:${id}`))).filter(
        (c): c is Call => c !== undefined && nextDue(c) !== undefined,
      );
    },
  };
}
