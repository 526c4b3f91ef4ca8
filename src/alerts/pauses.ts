/**
 * A pause that ends by itself (`/alerts pause 2h`) is said in its destination
 * once, as its start and /alerts resume are: a notice through the outbox, stored
 * as what happened and said in the destination's language when it is sent
 * (views/cards/notice.ts), then the pause is cleared. The notice's id names
 * the subscription and the pause's end, so a check repeated after a crash
 * between the two writes queues nothing new; a pause resumed, changed or
 * renewed meanwhile is left alone (its own answer said so).
 */
import type { Outbox, OutboxEntry } from '../store/outbox.ts';
import type { Subscription, SubscriptionStore } from '../store/subscriptions.ts';
import { alertEntry } from './plan.ts';
import { endPause, FOREVER } from './subscriptions.ts';

export interface PauseEndDeps {
  readonly subscriptions: SubscriptionStore;
  readonly outbox: Pick<Outbox, 'enqueue'>;
  /** Runs a write only while this instance leads (the watcher's lease). */
  readonly fenced: <T>(write: () => Promise<T>) => Promise<T>;
}

/** Whether `sub`'s pause has run out by `now` (a pause until resumed never does). */
export const pauseEnded = (sub: Subscription, now: number): boolean =>
  sub.pausedUntil !== null && sub.pausedUntil < FOREVER && sub.pausedUntil <= now && !sub.disabled && !sub.movedTo;

/** Announces and clears every pause among `subs` that has run out; returns the notices queued. */
export async function announcePauseEnds(
  o: PauseEndDeps,
  subs: readonly Subscription[],
  now: number,
): Promise<OutboxEntry[]> {
  const queued: OutboxEntry[] = [];
  for (const sub of subs) {
    if (!pauseEnded(sub, now)) continue;
    const until = sub.pausedUntil!;
    const entry = alertEntry(
      `pause-end:${sub.id}:${until}`,
      sub,
      { kind: 'notice', event: { what: 'pause-ended', until } },
      now,
    );
    // The notice first: a crash after it leaves the pause to clear at the next check (same id, nothing new).
    await o.fenced(() => o.outbox.enqueue(entry.id, [entry]));
    await o.fenced(() => endPause(o.subscriptions, sub.id, until, now));
    queued.push(entry);
  }
  return queued;
}
