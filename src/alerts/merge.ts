/**
 * Several alerts for one destination as one message. Bursts: when more alerts
 * are due than the platform lets the destination take in the next minute, they
 * go out merged instead of queueing behind each other (each stale when it
 * lands). Quiet hours: what they held goes out as one summary.
 *
 * Crash safety, as for any alert: the merged entry (its id derived from its
 * members, so the same members always give the same entry and Discord nonce)
 * is stored first, then the members are marked 'merged'. A crash in between
 * leaves both pending; `absorb` marks the members again before anything is sent.
 */
import { isTestAlert } from './testAlert.ts';
import type { MergedItem, OutboxEntry } from '../store/outbox.ts';
import { fnv1a } from './hash.ts';
import { threadPart } from '../domain/destination.ts';

/** Lines in one burst message: short enough to read at a glance and to fit every platform's limit. */
export const BURST_ITEMS_MIN = 10;
export const BURST_ITEMS_MAX = 40;

export const isAlert = (e: OutboxEntry): boolean => e.content.kind === 'alert' && !isTestAlert(e);

export function mergedItem(e: OutboxEntry): MergedItem {
  if (e.content.kind !== 'alert') throw new TypeError('only alerts merge');
  const card = e.content.actions.find((a) => a.command === 'token');
  return {
    token: e.content.token,
    kols: e.content.kols.map((k) => k.username),
    at: e.createdAt,
    ...(card ? { card } : {}),
  };
}

/** The merged entry for these members (alerts of one destination), id fixed by the members. */
export function mergedEntry(why: 'burst' | 'quiet', members: readonly OutboxEntry[], now: number): OutboxEntry {
  const ids = members.map((m) => m.id);
  const key = ids.join('\n');
  const first = members[0]!;
  return {
    id: `${why}:${fnv1a(key).toString(36)}${fnv1a(key, 0x01000193).toString(36)}:${first.subId}`,
    subId: first.subId,
    platform: first.platform,
    chatId: first.chatId,
    ...threadPart(first.threadId),
    isGroup: first.isGroup,
    content: { kind: 'merged', why, members: ids, items: members.map(mergedItem) },
    createdAt: now,
    state: 'pending',
    attempts: 0,
    notBefore: 0,
  };
}

/**
 * How a burst of `n` alerts is cut when the destination may take `budget` more
 * messages this minute: as few messages as readable, leaving room for what comes next.
 */
export function burstChunks<T>(items: readonly T[], budget: number): T[][] {
  const per = Math.min(
    BURST_ITEMS_MAX,
    Math.max(BURST_ITEMS_MIN, Math.ceil(items.length / Math.max(1, Math.floor(budget / 2)))),
  );
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += per) out.push(items.slice(i, i + per));
  return out;
}

/**
 * Sends to one destination in the last minute, counted where they were accepted,
 * to tell how many more the platform takes in the next minute.
 */
export class RecentSends {
  readonly #at = new Map<string, number[]>();
  readonly now: () => number;
  constructor(now: () => number) {
    this.now = now;
  }

  record(dest: string): void {
    let a = this.#at.get(dest);
    if (!a) {
      a = [];
      this.#at.set(dest, a);
    }
    a.push(this.now());
  }

  inLastMinute(dest: string): number {
    const a = this.#at.get(dest);
    if (!a) return 0;
    const from = this.now() - 60_000;
    while (a.length && a[0]! <= from) a.shift();
    if (!a.length) this.#at.delete(dest);
    return a.length;
  }

  /** Forgets destinations with nothing in the last minute (a 10,000-chat fan-out leaves nothing behind). */
  sweep(): void {
    for (const k of [...this.#at.keys()]) this.inLastMinute(k);
  }
}
