/**
 * Members' own calls (/callboard): who in a chat posted a token first, and at
 * what market cap. Any instance records them (whichever handled the message),
 * so every shared key here is written atomically across instances:
 *
 *   bs:<board>           the board's settings (admins: /callboard on|off)
 *   f:<board>:<tokenKey> the first call of the token in the board's window, taken
 *                        set-if-absent (RawStore.take): first writer wins, across
 *                        instances and members posting the same second. Its value
 *                        is the call itself, so a crash between the take and the
 *                        call's own write is repaired by the next sighting.
 *   b:<board>            ids of the board's calls (RawStore.listEdit: no lost append)
 *   u:<board>:<member>   ids of the member's calls of the last day there (the daily cap reads
 *                        these, not the whole board)
 *   in                   ids of calls not yet in the follow-up queue: the watcher's
 *                        lease holder moves them into calls.ts's t:/due (its only
 *                        writer) at each round, so one round serves KOL and member calls.
 *   c:<id>               the call (calls.ts's record, with `member` set)
 *
 * A board is a destination (subscriptionId): the same key as its alerts.
 */
import { createHash } from 'node:crypto';
import { tokenKeyOf } from '../domain/chains.ts';
import type { Call, MemberRef } from './calls.ts';
import type { RawStore } from './raw.ts';
import { StoreError, type Kv } from './strict.ts';

export interface BoardSettings {
  readonly on: boolean;
}

export type CallOutcome =
  /** A new call: the member has the credit. */
  | { readonly kind: 'recorded'; readonly call: Call }
  /** The token was called here within the window: `first` has the credit. */
  | { readonly kind: 'repeat'; readonly first: Call }
  /** The member reached the calls a day allowed; nothing recorded. */
  | { readonly kind: 'limit' };

export interface MemberCallOptions {
  /** A later post of the same token within this is not a new call (default 24 h). */
  readonly windowMs: number;
  /** Calls a member may make per board in 24 h (default 10). */
  readonly perDay: number;
  readonly retentionMs: number;
  /** Follow-up points of a member's call, minutes after it (MEMBER_CALL_FOLLOWUPS). */
  readonly points: readonly number[];
  readonly now?: () => number;
}

export interface MemberCallStore {
  /** Follow-up points a new call gets. */
  readonly points: readonly number[];
  /** Calls a member may make per board in 24 h. */
  readonly perDay: number;
  settings(board: string): Promise<BoardSettings>;
  setOn(board: string, on: boolean): Promise<void>;
  /** Records `call` unless the token was called in its board within the window or the member is at the cap. */
  call(call: Call): Promise<CallOutcome>;
  /** The board's calls since `from`, oldest first. */
  list(board: string, from: number): Promise<Call[]>;
  /** Removes a member's calls and name from the board (/callboard forget); how many calls went. */
  forget(board: string, memberId: string): Promise<number>;
  /** Removes calls by id (an admin's remove); how many were on the board. */
  remove(board: string, ids: readonly string[]): Promise<number>;
  /** Empties the board (an admin's reset); how many calls went. */
  reset(board: string): Promise<number>;
  /** Ids recorded but not yet in the follow-up queue, and their removal once queued. */
  intake(): Promise<string[]>;
  queued(ids: readonly string[]): Promise<void>;
}

const DAY = 86_400_000;

export function createMemberCalls(kv: Kv, raw: RawStore, o: MemberCallOptions): MemberCallStore {
  const now = o.now ?? Date.now;
  const firstKey = (board: string, c: Pick<Call, 'token'>) =>
    `f:${board}:${tokenKeyOf(c.token.chain, c.token.address)}`;
  const ttl = (c: Call) => Math.max(1, c.at + o.retentionMs - now());
  const dayKey = (board: string, member: string) => `u:${board}:${member}`;

  /** The member's calls on the board in the last 24 h; older ids leave their list as it is read. */
  async function today(board: string, member: string): Promise<number> {
    const ids = (await kv.get<string[]>(dayKey(board, member))) ?? [];
    const calls = await kv.getMany<Call>(ids.map((id) => `c:${id}`));
    const old = ids.filter((_, i) => !calls[i] || calls[i]!.at < now() - DAY);
    if (old.length) await raw.listEdit(`calls::${dayKey(board, member)}`, [], old);
    return ids.length - old.length;
  }

  async function list(board: string, from: number): Promise<Call[]> {
    const ids = (await kv.get<string[]>(`b:${board}`)) ?? [];
    const calls = await kv.getMany<Call>(ids.map((id) => `c:${id}`));
    const gone = ids.filter((_, i) => calls[i] === undefined);
    // Expired or forgotten calls leave the index as it is read.
    if (gone.length) await raw.listEdit(`calls::b:${board}`, [], gone);
    return calls.filter((c): c is Call => c !== undefined && c.at >= from).sort((a, b) => a.at - b.at);
  }

  /** Writes the call and its indexes; safe to repeat (a repair after a crash, a second sighting). */
  async function store(c: Call): Promise<void> {
    await kv.set(`c:${c.id}`, c, ttl(c));
    await raw.listEdit(`calls::b:${c.subId}`, [c.id]);
    if (c.member) await raw.listEdit(`calls::${dayKey(c.subId, c.member.id)}`, [c.id]);
    await raw.listEdit('calls::in', [c.id]);
  }

  async function drop(board: string, calls: readonly Call[]): Promise<number> {
    for (const c of calls) {
      // The credit goes with the call, and with it the member's name; the credit first, so that a
      // post in between records a new call instead of restoring this one (see repeat).
      const first = await kv.get<Call>(firstKey(board, c));
      if (first?.id === c.id) await kv.delete(firstKey(board, c));
      await kv.delete(`c:${c.id}`);
    }
    await raw.listEdit(
      `calls::b:${board}`,
      [],
      calls.map((c) => c.id),
    );
    await raw.listEdit(
      'calls::in',
      [],
      calls.map((c) => c.id),
    );
    for (const m of new Set(calls.flatMap((c) => (c.member ? [c.member.id] : []))))
      await raw.listEdit(
        `calls::${dayKey(board, m)}`,
        [],
        calls.map((c) => c.id),
      );
    return calls.length;
  }

  return {
    points: o.points,
    perDay: o.perDay,
    async settings(board) {
      return { on: (await kv.get<BoardSettings>(`bs:${board}`))?.on ?? false };
    },
    setOn: (board, on) => kv.set(`bs:${board}`, { on }),
    async call(c) {
      const key = firstKey(c.subId, c);
      const held = await kv.get<Call>(key);
      if (held) return repeat(held);
      if (c.member && (await today(c.subId, c.member.id)) >= o.perDay) return { kind: 'limit' };
      // A lost take is read back; one that expired in between (or was forgotten) is tried again.
      for (let tries = 0; ; tries++) {
        const value = JSON.stringify({ value: c, expires: now() + o.windowMs });
        if (await raw.take(`calls::${key}`, value, o.windowMs)) break;
        const winner = await kv.get<Call>(key);
        if (winner) return repeat(winner);
        if (tries >= 2) throw new StoreError('store write failed: the first call could be neither taken nor read');
      }
      await store(c);
      return { kind: 'recorded', call: c };
    },
    list,
    async forget(board, memberId) {
      return drop(
        board,
        (await list(board, 0)).filter((c) => c.member?.id === memberId),
      );
    },
    async remove(board, ids) {
      return drop(
        board,
        (await list(board, 0)).filter((c) => ids.includes(c.id)),
      );
    },
    async reset(board) {
      const n = await drop(board, await list(board, 0));
      await kv.delete(`b:${board}`);
      return n;
    },
    intake: async () => (await kv.get<string[]>('in')) ?? [],
    queued: (ids) => raw.listEdit('calls::in', [], ids),
  };

  /** The first call as it stands now (its peak moved since); rewritten when a crash lost it after the take. */
  async function repeat(held: Call): Promise<CallOutcome> {
    const current = await kv.get<Call>(`c:${held.id}`);
    if (current) return { kind: 'repeat', first: current };
    await store(held);
    return { kind: 'repeat', first: held };
  }
}

/**
 * A member's call as recorded. Its id is unique per post (the credit is the f: key, not the id) and
 * says nothing about who made it: ids stay in indexes a moment after /callboard forget.
 */
export function memberCall(o: {
  readonly board: string;
  readonly platform: Call['platform'];
  readonly chatId: string;
  readonly messageId: string;
  readonly member: MemberRef;
  readonly token: Call['token'];
  readonly marketCap: number;
  readonly liquidity: number | null;
  readonly at: number;
  readonly points: readonly number[];
  /** Unique among the posts of this member and token at this ms (the message id where there is one). */
  readonly nonce: string;
}): Call {
  return {
    id: `m:${createHash('sha256')
      .update(JSON.stringify([o.board, tokenKeyOf(o.token.chain, o.token.address), o.at, o.member.id, o.nonce]))
      .digest('base64url')
      .slice(0, 22)}`,
    subId: o.board,
    platform: o.platform,
    chatId: o.chatId,
    messageId: o.messageId,
    token: o.token,
    kols: [],
    tweetIds: [],
    at: o.at,
    marketCap: o.marketCap,
    liquidity: o.liquidity,
    points: [...o.points].sort((a, b) => a - b),
    next: 0,
    samples: [],
    peak: o.marketCap,
    member: o.member,
  };
}

/**
 * Schema version 7: lists each member's calls of the last day per board (u:), from the boards.
 * Safe to run twice (a set of ids is rewritten whole). Runs under the migration lock, before any
 * instance records, so a plain write is enough here.
 */
export async function indexMembersDay(kv: Kv, now = Date.now()): Promise<void> {
  const boards: string[] = [];
  for await (const [key] of kv.entries<unknown>()) if (key.startsWith('b:')) boards.push(key.slice(2));
  for (const board of boards) {
    const ids = (await kv.get<string[]>(`b:${board}`)) ?? [];
    const lists = new Map<string, string[]>();
    for (const c of await kv.getMany<Call>(ids.map((id) => `c:${id}`)))
      if (c?.member && c.at >= now - DAY)
        (lists.get(c.member.id) ?? lists.set(c.member.id, []).get(c.member.id)!).push(c.id);
    for (const [member, mine] of lists) await kv.set(`u:${board}:${member}`, mine);
  }
}
