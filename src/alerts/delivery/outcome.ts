/**
 * One entry to its platform and what the answer means: the send/retry state
 * machine. Sent entries become calls before they are marked sent; transient
 * failures wait (429s for as long as they say, others up to retryForMs); a
 * possible double post is never risked; a destination gone for good is
 * disabled, a migrated group followed.
 */
import type { OutboxEntry } from '../../store/outbox.ts';
import { subscriptionId, type Subscription } from '../../store/subscriptions.ts';
import { tokenKeyOf } from '../../domain/chains.ts';
import { chatKeyOf, destinationKey } from '../../domain/destination.ts';
import { disable, leaveThread, migrate } from '../subscriptions.ts';
import { addKols } from './amend.ts';
import { postingOf, viewOf } from './compose.ts';
import { followUp, track } from './followup.ts';
import { isTestAlert } from '../testAlert.ts';
import { CUT_OFF } from '../notice.ts';
import { finish, localeOf, serial, wake, type DeliveryState } from './state.ts';
import { nonceFor, type Sender, type SendResult, type Step } from './types.ts';

export async function sendOne(
  s: DeliveryState,
  e: OutboxEntry,
  sender: Sender,
  sub: Subscription | undefined,
): Promise<Step> {
  const accepted = s.unrecorded.get(e.id);
  if (accepted !== undefined) {
    await track(s, e, accepted, sub);
    await finish(s, e, 'sent', accepted);
    s.unrecorded.delete(e.id);
    return 'next';
  }
  // An owner's notice found in flight was being sent when an instance died: the platform may
  // have taken it. Where a repeat could post twice (no nonce), it is not sent again: a notice is
  // never doubled; the progress counts it as not delivered.
  if (e.state === 'inflight' && e.content.kind === 'notice' && !sender.dedupes) {
    await finish(s, e, 'dead', `${CUT_OFF}: maybe delivered, not sent again`);
    return 'next';
  }
  if (e.notBefore > s.now()) {
    wake(s, e.notBefore);
    return 'later';
  }
  if (e.content.kind === 'followup') return followUp(s, e, e.content, sender, sub);
  let r: SendResult;
  if (e.content.kind === 'more') {
    const step = await addKols(s, e, e.content, sender, sub);
    if (step !== undefined) return step;
    r = { kind: 'sent', messageId: '' };
  } else {
    // At its own limit: a timer, not a worker, waits for this destination (the others go on).
    const wait = sender.readyIn?.(e.chatId) ?? 0;
    if (wait > 0) return paced(s, e, wait);
    e.attempts++;
    // In flight from the moment the send may reach the platform: before it, a crash leaves it pending.
    const onWire = async () => {
      if (e.state === 'inflight') return;
      e.state = 'inflight';
      await s.o.outbox.update(e);
    };
    if (!sender.marksOnWire) await onWire();
    r = await sender.send(
      e.chatId,
      await viewOf(s, e),
      nonceFor(e.id),
      e.threadId,
      onWire,
      postingOf(e, sub, sub?.posting?.publish ? await localeOf(s, e) : undefined),
    );
    if (r.kind === 'paced') {
      e.attempts--;
      return paced(s, e, r.afterMs);
    }
  }
  s.o.onResult?.(e, r);
  switch (r.kind) {
    case 'sent':
      s.recent.record(chatKeyOf(e));
      try {
        // The call first: an entry marked sent is also a recorded call (recording twice changes nothing).
        await track(s, e, r.messageId, sub);
        await finish(s, e, 'sent', r.messageId);
      } catch (err) {
        s.unrecorded.set(e.id, r.messageId);
        throw err;
      }
      return 'next';
    case 'retry':
      if (s.now() - e.createdAt > s.retryForMs && !r.rateLimited) {
        await finish(s, e, 'dead', `gave up after ${e.attempts} attempts: ${r.reason}`);
        s.o.log.warn({ entry: e.id, reason: r.reason }, 'alert given up');
        return 'next';
      }
      e.state = 'pending';
      e.notBefore = s.now() + r.afterMs;
      await s.o.outbox.update(e);
      wake(s, e.notBefore);
      return 'later';
    case 'rejected':
      await finish(s, e, 'dead', `refused by the platform: ${r.reason}`);
      s.o.log.warn({ entry: e.id, reason: r.reason }, 'alert refused by the platform');
      return 'next';
    case 'uncertain':
      await finish(s, e, 'dead', `not resent after an uncertain send: ${r.reason}`);
      s.o.log.warn({ entry: e.id, reason: r.reason }, 'alert send uncertain; not retried to avoid a duplicate');
      return 'next';
    case 'gone':
      if (r.graceMs !== undefined && s.now() - e.createdAt < r.graceMs) {
        // Not gone yet: retried until the entry is graceMs old (not cut at retryForMs).
        e.state = 'pending';
        e.notBefore = s.now() + (r.retryMs ?? 60_000);
        await s.o.outbox.update(e);
        s.o.log.info({ entry: e.id, reason: r.reason }, 'destination refused; retried before it ends');
        wake(s, e.notBefore);
        return 'later';
      }
      return destinationGone(s, e, r.reason, r.migrateTo, r.toChat);
  }
}

/** Nothing was sent and nothing failed: the destination is due again when its limit frees. */
async function paced(s: DeliveryState, e: OutboxEntry, afterMs: number): Promise<Step> {
  e.notBefore = s.now() + afterMs;
  e.state = 'pending';
  await s.o.outbox.update(e);
  wake(s, e.notBefore);
  return 'later';
}

async function destinationGone(
  s: DeliveryState,
  e: OutboxEntry,
  reason: string,
  migrateTo: string | undefined,
  toChat?: true,
): Promise<Step> {
  if (toChat) {
    // The thread is gone, not the chat (a group turned topics off): its settings and queued
    // alerts go to the chat itself, once, this entry among them; unless the chat has alerts of
    // its own. One chat's topics find out one at a time, so only one of them moves there.
    const m = await serial(s, chatKeyOf(e), () => leaveThread(s.o.subscriptions, e.subId, s.now()));
    if (m) s.o.log.warn({ ...m, reason }, 'thread gone; its alerts go to the chat itself');
    const sub = await s.o.subscriptions.get(e.subId);
    if (sub?.movedTo) s.moved.set(destinationKey(e), { chatId: e.chatId, subId: subscriptionId(e.platform, e.chatId) });
    else await finish(s, e, 'dead', sub?.disabled?.reason ?? reason);
    return 'stop';
  }
  if (migrateTo) {
    // The group became a supergroup: the settings move to the new id (the adapter may
    // already have moved them on the service message), and this destination's alerts
    // are re-queued there.
    const m = await migrate(s.o.subscriptions, e.subId, migrateTo, s.now());
    if (m) s.o.log.info(m, 'subscription migrated');
    s.moved.set(chatKeyOf(e), { chatId: migrateTo, subId: subscriptionId(e.platform, migrateTo) });
    return 'stop';
  }
  await finish(s, e, 'dead', reason);
  if (await disable(s.o.subscriptions, e.subId, reason, s.now()))
    s.o.log.warn({ sub: e.subId, reason }, 'destination gone; subscription disabled');
  return 'stop';
}

/** Why a queued alert should no longer go out, read from the subscription as it is now. */
export function unwanted(e: OutboxEntry, sub: Subscription | undefined, now: number): string | undefined {
  if (!sub) return 'unsubscribed before it was sent';
  if (sub.disabled) return `destination disabled: ${sub.disabled.reason}`;
  if (isTestAlert(e)) return undefined;
  if (sub.pausedUntil !== null && sub.pausedUntil > now) return 'alerts paused';
  if (e.content.kind === 'followup') return undefined;
  if (
    e.content.kind === 'alert' &&
    sub.mutedTokens.includes(tokenKeyOf(e.content.token.chain, e.content.token.address))
  )
    return 'token muted';
  return undefined;
}
