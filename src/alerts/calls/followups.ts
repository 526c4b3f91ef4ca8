/**
 * Follow-up rounds, run by the watcher's lease holder after each tick. A round
 * takes the tokens whose follow-ups are due (the queue lives in the store),
 * asks the upstream once per token (operation 2, however many destinations
 * follow it), stays within a per-minute request budget, and queues one edit per
 * call in the outbox, where delivery sends it after every new alert.
 *
 * Crash safety: the edit's entry id is `fu:<call>:<point>`, so a round repeated
 * after a crash between "queued" and "call saved" finds the entry already there
 * and queues nothing twice; an edit itself is idempotent, and it waits until the
 * call holds the sample it shows (delivery/followup.ts), so an edit sent in that
 * gap never passes the old text off as the new point.
 */
import type { Logger } from 'pino';
import type { KolClient } from '../../api/index.ts';
import { tokenKeyOf } from '../../domain/chains.ts';
import { nextDue, pointsOf, type Call, type CallStore } from '../../store/calls.ts';
import type { Lease } from '../../store/lease.ts';
import type { Outbox, OutboxEntry } from '../../store/outbox.ts';
import { marketNow, type MarketAtTime } from '../market.ts';
import { threadPart } from '../../domain/destination.ts';
import type { MemberCallStore } from '../../store/membercalls.ts';

export interface FollowupsOptions {
  readonly calls: CallStore;
  readonly outbox: Outbox;
  readonly api: KolClient;
  readonly lease: Pick<Lease, 'fenced'>;
  readonly log: Logger;
  /** Members' calls recorded by any instance, moved into the follow-up queue at each round. */
  readonly members?: Pick<MemberCallStore, 'intake' | 'queued'>;
  /** Operation-2 requests per minute at most (FOLLOWUP_REQUESTS_PER_MINUTE). */
  readonly perMinute: number;
  readonly budgetMs?: number;
  /** The follow-up clock: injectable so tests do not wait hours. */
  readonly now?: () => number;
}

export interface RoundResult {
  /** Tokens asked about (upstream requests). */
  readonly requests: number;
  /** Edits queued. */
  readonly queued: number;
  /** Tokens due but left for a later round by the budget. */
  readonly deferred: number;
}

export interface Followups {
  round(): Promise<RoundResult>;
  /** The watcher saw these tokens' market caps (new alerts): open calls keep the highest as their peak. */
  sighted(markets: ReadonlyMap<string, MarketAtTime>): Promise<void>;
}

/** A point taken this much after it was due (downtime) is marked late. */
export function lateAfterMs(pointMinutes: number): number {
  return Math.max(5 * 60_000, pointMinutes * 60_000 * 0.1);
}

/** A token the upstream cannot answer for this long after its point is skipped, not asked forever. */
const GIVE_UP_MS = 6 * 3600_000;

const MINUTE = 60_000;

/** Due tokens read per round at most, to find those with an alert's call to serve first. */
const LOOK_AHEAD = 4;

export function createFollowups(o: FollowupsOptions): Followups {
  const now = o.now ?? Date.now;
  const budgetMs = o.budgetMs ?? 10_000;
  /** Times of this minute's requests (a sliding window on the follow-up clock). */
  const sent: number[] = [];

  /** The call after a sample at `t`: every point passed is answered by this one sample. */
  function advance(c: Call, t: number, cap: number | null): { call: Call; point: number } | undefined {
    const points = pointsOf(c);
    let i = c.next;
    while (i < points.length && c.at + points[i]! * MINUTE <= t) i++;
    if (i === c.next) return undefined;
    const point = i - 1;
    const dueAt = c.at + points[point]! * MINUTE;
    if (cap === null) return { call: { ...c, next: i }, point: -1 };
    const late = t - dueAt > lateAfterMs(points[point]!);
    return {
      call: {
        ...c,
        next: i,
        samples: [...c.samples, { at: t, marketCap: cap, point: points[point]!, ...(late ? { late: true } : {}) }],
        peak: Math.max(c.peak ?? 0, cap),
      },
      point,
    };
  }

  /** Members' new calls into the queue (record is idempotent: a crash before `queued` repeats it harmlessly). */
  async function intake(members: Pick<MemberCallStore, 'intake' | 'queued'>): Promise<void> {
    const ids = await members.intake();
    if (!ids.length) return;
    const calls = await o.calls.getMany(ids);
    await o.lease.fenced(async () => {
      for (const c of calls) if (c) await o.calls.record(c);
    });
    await members.queued(ids);
  }

  return {
    async round() {
      const t = now();
      while (sent.length && sent[0]! <= t - MINUTE) sent.shift();
      if (o.members) await intake(o.members);
      const due = await o.calls.dueTokens(t);
      const room = Math.max(0, o.perMinute - sent.length);
      // Only a token with a point due now is asked about. The index can be ahead of the calls (a
      // crash between saving them and it): such an entry is repaired, and costs no request.
      // Alerts' calls first: a token with one due is asked before a token only members called,
      // among the due tokens read this round (a bounded look-ahead, earliest due first).
      const kol = new Map<string, Call[]>();
      const member = new Map<string, Call[]>();
      const stale: string[] = [];
      let looked = 0;
      for (; looked < due.length && kol.size < room && looked < room * LOOK_AHEAD; looked++) {
        const key = due[looked]!.tokenKey;
        const calls = await o.calls.openCalls(key);
        const ready = calls.filter((c) => nextDue(c)! <= t);
        if (!ready.length) stale.push(key);
        else (ready.some((c) => !c.member) ? kol : member).set(key, calls);
      }
      if (stale.length) await o.lease.fenced(() => o.calls.reindex(stale));
      const open = new Map([...kol, ...member].slice(0, room));
      if (!open.size) return { requests: 0, queued: 0, deferred: due.length - stale.length };
      const refs = [...open.values()].flatMap((cs) => (cs[0] ? [cs[0].token] : []));
      for (let i = 0; i < refs.length; i++) sent.push(t);
      const markets = await marketNow(o.api, refs, { budgetMs, log: o.log });
      let queued = 0;
      /** Burst messages given their edit this round: one edit shows every token of the message. */
      const bursts = new Set<string>();
      for (const [key, calls] of open) {
        const entries: OutboxEntry[] = [];
        const changed: Call[] = [];
        for (const c of calls) {
          const m = markets.get(tokenKeyOf(c.token.chain, c.token.address));
          const cap = m?.marketCap ?? null;
          // Unanswered: try again next round, unless it has been failing for hours.
          if (cap === null && t - nextDue(c)! < GIVE_UP_MS) continue;
          const step = advance(c, t, cap);
          if (!step) continue;
          changed.push(step.call);
          // A member's call has no alert message to edit: its samples feed the board.
          if (step.point < 0 || c.member) continue;
          const burst = c.burst ? `${c.chatId}:${c.messageId}` : undefined;
          if (burst && bursts.has(burst)) continue;
          if (burst) bursts.add(burst);
          entries.push({
            // A burst's edit is the message's for this round (its calls' points fall due together).
            id: burst ? `fu:burst:${c.subId}:${c.messageId}:${t}` : `fu:${c.id}:${step.point}`,
            subId: c.subId,
            platform: c.platform,
            chatId: c.chatId,
            ...threadPart(c.threadId),
            isGroup: false,
            content: { kind: 'followup', call: c.id, point: step.point },
            createdAt: t,
            state: 'pending',
            attempts: 0,
            notBefore: 0,
          });
        }
        // Entries first, then the calls: a crash in between repeats the round, and the
        // entries (same ids) are not queued again.
        if (entries.length) queued += await o.outbox.enqueue(`fu-${key}-${t}`, entries);
        if (changed.length) await o.lease.fenced(() => o.calls.save(changed));
      }
      return { requests: refs.length, queued, deferred: due.length - stale.length - open.size };
    },
    async sighted(markets) {
      for (const [key, m] of markets) {
        if (m.marketCap === null) continue;
        // Every kept call of the token, follow-ups done or not: the peak is the highest the bot saw.
        const calls = (await o.calls.tokenCalls(key)).filter((c) => c.peak === null || m.marketCap! > c.peak);
        if (calls.length) await o.lease.fenced(() => o.calls.save(calls.map((c) => ({ ...c, peak: m.marketCap }))));
      }
    },
  };
}
