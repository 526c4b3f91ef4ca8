/**
 * One run over the outbox: entries grouped by destination, each destination a
 * queue of its own sent in order, many destinations at once. New alerts first,
 * then follow-up edits, which yield as soon as a new drain is asked for.
 *
 * Runs overlap: a drain asked for while a run waits on a slow destination starts
 * a run of its own at once. Each destination is claimed by the one queue sending
 * it (state.claimed); a run that finds it claimed leaves its entries waiting, and
 * they go out, read afresh, as soon as that queue ends. So a destination whose
 * send hangs holds up nothing but itself.
 */
import type { OutboxEntry } from '../../store/outbox.ts';
import { subscriptionId } from '../../store/subscriptions.ts';
import { chatKeyOf, destinationKey } from '../../domain/destination.ts';
import { sendOne, unwanted } from './outcome.ts';
import { regroup } from './regroup.ts';
import { finish, isFollowup, leading, type DeliveryState } from './state.ts';

/** `read` is called once the run has read the outbox (a later drain then needs a run of its own). */
export async function runOnce(s: DeliveryState, read: () => void = () => {}): Promise<void> {
  s.failed = undefined;
  s.moved.clear();
  s.recent.sweep();
  s.yieldFollowups = false;
  // Destinations released while the outbox is read: what was read of them may be sent already.
  const released = new Set<string>();
  s.reading.add(released);
  let pending: OutboxEntry[];
  try {
    pending = await s.o.outbox.pending();
  } finally {
    s.reading.delete(released);
    read();
  }
  // New alerts first, then follow-up edits: a destination's edits are a queue of their own.
  // A destination is a chat or a topic of it: each topic is a queue, paced with its chat by the sender.
  const byDest = new Map<string, OutboxEntry[]>();
  const edits = new Map<string, OutboxEntry[]>();
  for (const e of pending) {
    const k = keyOf(e);
    const m = isFollowup(e) ? edits : byDest;
    let q = m.get(k);
    if (!q) {
      q = [];
      m.set(k, q);
    }
    q.push(e);
  }
  // Alerts are claimed now, edits when their turn comes (another run may send them before).
  const mine = [...byDest].filter(([k, q]) => claim(s, k, q, released));
  s.sharing.clear();
  for (const [, q] of byDest) s.sharing.set(chatKeyOf(q[0]!), (s.sharing.get(chatKeyOf(q[0]!)) ?? 0) + 1);
  const run = async (queues: [string, OutboxEntry[]][], width: number, edit: boolean) => {
    let next = 0;
    // A store failure stops every worker before the run ends.
    const worker = async () => {
      while (next < queues.length && !s.stopping && !s.failed && !(edit && s.yieldFollowups)) {
        const [k, q] = queues[next++]!;
        if (edit && !claim(s, k, q)) continue;
        try {
          await runQueue(s, edit ? await fresh(s, k, q) : q);
        } catch (err) {
          s.failed ??= err;
        } finally {
          release(s, k);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(width, queues.length) }, worker));
    // Claimed and not started (the run stopped early): free for the next run.
    if (!edit) for (const [k] of queues.slice(next)) release(s, k);
  };
  await run(mine, s.o.concurrency ?? 256, false);
  if (!s.failed) await run([...edits], s.o.followupConcurrency ?? 8, true);
  if (s.failed) throw s.failed;
  s.o.onDrained?.(await s.o.outbox.compact());
}

/**
 * Takes destination `k` for one queue; false when another queue has it (or released it while the
 * outbox was read), and then `q` waits for it to end.
 */
function claim(s: DeliveryState, k: string, q: OutboxEntry[], released?: ReadonlySet<string>): boolean {
  if (s.claimed.has(k) || released?.has(k)) {
    s.waiting.set(k, q);
    if (!s.claimed.has(k)) release(s, k);
    return false;
  }
  s.claimed.add(k);
  return true;
}

/** Frees destination `k`; what a run left waiting for it goes out now, read afresh. */
function release(s: DeliveryState, k: string): void {
  s.claimed.delete(k);
  for (const r of s.reading) r.add(k);
  const q = s.waiting.get(k);
  if (!q) return;
  s.waiting.delete(k);
  if (s.stopping || !leading(s)) return;
  s.claimed.add(k);
  const task = (async () => {
    try {
      await runQueue(s, await fresh(s, k, q));
    } catch (err) {
      // A store fault: the entries stay pending for the next drain.
      s.o.log.warn({ err }, 'delivery paused');
    } finally {
      release(s, k);
    }
  })();
  s.tasks.add(task);
  void task.finally(() => s.tasks.delete(task));
}

/**
 * The entries of destination `k` in `q` as the outbox holds them now: without those another queue
 * finished meanwhile, or moved to another destination (a migrated group: they go out by a run of their own).
 */
async function fresh(s: DeliveryState, k: string, q: OutboxEntry[]): Promise<OutboxEntry[]> {
  const now = await Promise.all(q.map((e) => s.o.outbox.get(e.id)));
  return now.filter(
    (e): e is OutboxEntry => e !== undefined && (e.state === 'pending' || e.state === 'inflight') && keyOf(e) === k,
  );
}

/** The destination an entry's queue claims: its alerts' queue, or its follow-ups'. */
const keyOf = (e: OutboxEntry): string => (isFollowup(e) ? 'edit ' : '') + destinationKey(e);

/** Sends one destination's entries in order until one must wait or the destination is gone. */
export async function runQueue(s: DeliveryState, q: OutboxEntry[]): Promise<void> {
  const first = q[0];
  if (!first) return;
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
