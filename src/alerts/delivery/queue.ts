/**
 * One run over the outbox: entries grouped by destination, each destination a
 * queue of its own sent in order, many destinations at once, so one slow or
 * dead chat never holds up the others. New alerts first, then follow-up edits,
 * which yield as soon as a new drain is asked for.
 */
import type { OutboxEntry } from '../../store/outbox.ts';
import { subscriptionId } from '../../store/subscriptions.ts';
import { chatKeyOf, destinationKey } from '../../domain/destination.ts';
import { sendOne, unwanted } from './outcome.ts';
import { regroup } from './regroup.ts';
import { finish, isFollowup, leading, type DeliveryState } from './state.ts';

export async function runOnce(s: DeliveryState): Promise<void> {
  s.failed = undefined;
  s.moved.clear();
  s.recent.sweep();
  s.yieldFollowups = false;
  const pending = await s.o.outbox.pending();
  // New alerts first, then follow-up edits: a destination's edits are a queue of their own.
  // A destination is a chat or a topic of it: each topic is a queue, paced with its chat by the sender.
  const byDest = new Map<string, OutboxEntry[]>();
  const edits = new Map<string, OutboxEntry[]>();
  for (const e of pending) {
    const k = destinationKey(e);
    const m = isFollowup(e) ? edits : byDest;
    let q = m.get(k);
    if (!q) {
      q = [];
      m.set(k, q);
    }
    q.push(e);
  }
  s.sharing.clear();
  for (const q of byDest.values()) s.sharing.set(chatKeyOf(q[0]!), (s.sharing.get(chatKeyOf(q[0]!)) ?? 0) + 1);
  const run = async (queues: OutboxEntry[][], width: number, yields: boolean) => {
    let next = 0;
    // A store failure stops every worker before the run ends: no second run may start
    // while sends of this one are still going out.
    const worker = async () => {
      while (next < queues.length && !s.stopping && !s.failed && !(yields && s.yieldFollowups)) {
        try {
          await runQueue(s, queues[next++]!);
        } catch (err) {
          s.failed ??= err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(width, queues.length) }, worker));
  };
  await run([...byDest.values()], s.o.concurrency ?? 256, false);
  if (!s.failed) await run([...edits.values()], s.o.followupConcurrency ?? 8, true);
  if (s.failed) throw s.failed;
  s.o.onDrained?.(await s.o.outbox.compact());
}

/** Sends one destination's entries in order until one must wait or the destination is gone. */
export async function runQueue(s: DeliveryState, q: OutboxEntry[]): Promise<void> {
  const first = q[0]!;
  const sender = s.senders.get(first.platform);
  if (!sender) {
    // No such platform in this process (a console subscription while on Discord): nothing can send it.
    for (const e of q) await finish(s, e, 'dead', `${first.platform} is not running`);
    return;
  }
  const sub = await s.o.subscriptions.get(first.subId);
  if (sub?.movedTo) {
    // The chat moved (group upgrade), or its thread is gone (topics turned off), after these were
    // queued: they follow it, to the chat itself.
    const to = { chatId: sub.movedTo, subId: subscriptionId(first.platform, sub.movedTo), threadId: undefined };
    for (const e of q) {
      Object.assign(e, { ...to, state: 'pending', notBefore: 0 });
      await s.o.outbox.update(e);
    }
    s.again = true;
    return;
  }
  q = await regroup(s, q, sub, sender);
  for (let i = 0; i < q.length; i++) {
    if (s.stopping || s.failed || !leading(s)) return;
    const e = q[i]!;
    // Read again before each send: the destination may have unsubscribed, paused or muted meanwhile.
    const current = i === 0 ? sub : await s.o.subscriptions.get(e.subId);
    const why = unwanted(e, current, s.now());
    if (why) {
      await finish(s, e, 'dead', why);
      continue;
    }
    if (isFollowup(e) && s.yieldFollowups) return;
    const step = await sendOne(s, e, sender, current);
    if (step === 'later') return;
    if (step === 'stop') {
      const to = s.moved.get(destinationKey(e)) ?? s.moved.get(chatKeyOf(e));
      for (const rest of q.slice(i)) {
        if (to) {
          Object.assign(rest, { ...to, threadId: undefined, state: 'pending', notBefore: 0 });
          await s.o.outbox.update(rest);
        } else if (rest.state !== 'dead') await finish(s, rest, 'dead', e.error ?? 'destination gone');
      }
      if (to) s.again = true;
      return;
    }
  }
}
