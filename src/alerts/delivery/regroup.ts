/**
 * A destination's queue before it is sent: members of a merged entry already
 * stored are marked again (after a crash between the two writes); during quiet
 * hours alerts are held; after them, what was held becomes a summary; and a
 * burst larger than the destination takes in the next minute is merged.
 */
import type { OutboxEntry } from '../../store/outbox.ts';
import type { Subscription } from '../../store/subscriptions.ts';
import { BURST_ITEMS_MAX, burstChunks, isAlert, mergedEntry } from '../merge.ts';
import { quietUntil } from '../quiet.ts';
import { wake, type DeliveryState } from './state.ts';
import type { Sender } from './types.ts';
import { chatKeyOf } from '../../domain/destination.ts';

export async function regroup(
  s: DeliveryState,
  q: OutboxEntry[],
  sub: Subscription | undefined,
  sender: Sender,
): Promise<OutboxEntry[]> {
  const t = s.now();
  const into = new Map<string, string>();
  for (const e of q) if (e.content.kind === 'merged') for (const id of e.content.members) into.set(id, e.id);
  for (const e of q) if (into.has(e.id)) await markMerged(s, e, into.get(e.id)!);
  let out = q.filter((e) => !into.has(e.id));
  // Paused, gone or unsubscribed: the send loop drops these as it always did (pause keeps nothing).
  if (!sub || sub.disabled || (sub.pausedUntil !== null && sub.pausedUntil > t)) return out;
  const until = sub.quiet ? quietUntil(sub.quiet, t) : undefined;
  const kept: OutboxEntry[] = [];
  const held: OutboxEntry[] = [];
  for (const e of out) {
    if (e.quietUntil !== undefined) {
      if (until === undefined) held.push(e);
      else {
        // Quiet hours again (the bot was down, or stalled, through the hours between): what the
        // last ones held waits for these to end too, never a summary in the middle of the night.
        if (e.quietUntil < until) {
          e.quietUntil = until;
          e.notBefore = until;
          await s.o.outbox.update(e);
        }
        wake(s, e.quietUntil);
      }
    } else if (until !== undefined && isAlert(e) && e.state === 'pending') {
      e.quietUntil = until;
      e.notBefore = until;
      await s.o.outbox.update(e);
      wake(s, until);
    } else kept.push(e);
  }
  out = kept;
  // Every held alert is listed, once and in order, in as many messages as the platforms' limits
  // need: the same cut as a burst's (merge.ts), never "and N more" with the rest shown nowhere.
  const summaries: OutboxEntry[] = [];
  for (let i = 0; i < held.length; i += BURST_ITEMS_MAX) {
    const summary = await merge(s, 'quiet', held.slice(i, i + BURST_ITEMS_MAX));
    if (summary) summaries.push(summary);
  }
  out.unshift(...summaries);
  const ready = out.filter((e) => isAlert(e) && e.state === 'pending' && e.notBefore <= t);
  if (ready.length < 2 || !sender.perMinute) return out;
  // The chat's minute, shared by its destinations with alerts now (a group's topics count together).
  const share = s.sharing.get(chatKeyOf(sub)) ?? 1;
  const budget = Math.floor(
    (sender.perMinute(sub.chatId, sub.isGroup) - s.recent.inLastMinute(chatKeyOf(sub))) / share,
  );
  if (ready.length <= budget) return out;
  const replaced = new Map<string, OutboxEntry | null>();
  for (const chunk of burstChunks(ready, budget)) {
    if (chunk.length < 2) continue;
    const m = await merge(s, 'burst', chunk);
    chunk.forEach((e, i) => {
      replaced.set(e.id, i === 0 ? (m ?? null) : null);
    });
  }
  return out.flatMap((e) => {
    const r = replaced.get(e.id);
    return r === undefined ? [e] : r ? [r] : [];
  });
}

/** Stores a merged entry for these members, then marks them merged; returns it unless it was already sent. */
async function merge(
  s: DeliveryState,
  why: 'burst' | 'quiet',
  members: readonly OutboxEntry[],
): Promise<OutboxEntry | undefined> {
  const fresh = mergedEntry(why, members, s.now());
  await s.o.outbox.enqueue(`merge-${fresh.id}`, [fresh]);
  const stored = (await s.o.outbox.get(fresh.id)) ?? fresh;
  for (const m of members) await markMerged(s, m, stored.id);
  return stored.state === 'pending' || stored.state === 'inflight' ? stored : undefined;
}

async function markMerged(s: DeliveryState, e: OutboxEntry, into: string): Promise<void> {
  e.state = 'merged';
  e.mergedInto = into;
  await s.o.outbox.update(e);
}
