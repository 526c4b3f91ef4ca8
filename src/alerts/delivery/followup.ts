/**
 * Calls and their follow-ups on the delivery side: an accepted alert becomes a
 * call of its destination, and a follow-up entry edits the alert in place with
 * the call's latest line.
 */
import type { OutboxEntry } from '../../store/outbox.ts';
import type { Subscription } from '../../store/subscriptions.ts';
import { alertView } from '../../views/cards/alert.ts';
import { followupLine } from '../../views/cards/callLine.ts';
import { translator } from '../../i18n/index.ts';
import { formats } from '../../i18n/format.ts';
import { callOf, followupsOf } from '../calls/record.ts';
import { isTestAlert } from '../testAlert.ts';
import { finish, localeOf, wake, type DeliveryState } from './state.ts';
import type { Sender, Step } from './types.ts';

/** An accepted alert becomes a call of its destination (once: a repeat changes nothing). */
export async function track(
  s: DeliveryState,
  e: OutboxEntry,
  messageId: string,
  sub: Subscription | undefined,
): Promise<void> {
  const { calls, outbox } = s.o;
  if (calls && e.content.kind === 'merged' && messageId) {
    // Each alert of a merged message is a call of its own, scored like any other; it gets no
    // follow-up edits, which would replace the whole list with one alert.
    for (const id of e.content.members) {
      const m = await outbox.get(id);
      if (m?.content.kind === 'alert') await calls.record(callOf(m, m.content, messageId, [], s.now()));
    }
    return;
  }
  if (!calls || e.content.kind !== 'alert' || isTestAlert(e) || !messageId) return;
  await calls.record(callOf(e, e.content, messageId, followupsOf(sub), s.now()));
}

/**
 * A follow-up: the alert is edited in place with the call's latest line. A
 * message users deleted (or a chat the bot left) ends the call's follow-ups
 * quietly; an edit is idempotent, so anything transient is simply retried.
 */
export async function followUp(
  s: DeliveryState,
  e: OutboxEntry,
  fu: Extract<OutboxEntry['content'], { kind: 'followup' }>,
  sender: Sender,
  sub: Subscription | undefined,
): Promise<Step> {
  const call = await s.o.calls?.get(fu.call);
  if (!call || call.ended || !call.content) {
    // A member's call has no alert to edit: its follow-ups feed the board, never a queued edit.
    await finish(
      s,
      e,
      'dead',
      !call ? 'call forgotten' : call.content ? `follow-ups ended: ${call.ended}` : 'no alert',
    );
    return 'next';
  }
  if (!followupsOf(sub).length) {
    await finish(s, e, 'dead', 'follow-ups turned off here');
    return 'next';
  }
  if (!sender.edit) {
    await finish(s, e, 'dead', `${sender.platform} cannot edit`);
    return 'next';
  }
  if (call.next <= fu.point) {
    // The round queues this edit before it saves the call's new sample (calls/followups.ts): read
    // in between (a drain, or a restart after a crash there), the call still has the old line, and
    // an edit now would show it, which the platform answers "not modified" and would pass for
    // done. The edit waits for the sample it is there to show: it stays pending, and the drain the
    // watcher starts once the round has saved its calls sends it. A call that ends meanwhile ends it above.
    if (s.now() - e.createdAt > s.retryForMs) {
      await finish(s, e, 'dead', 'its sample was never saved');
      return 'next';
    }
    return 'later';
  }
  const locale = await localeOf(s, call);
  const line = followupLine(call, translator(locale), formats(locale));
  e.attempts++;
  const r = await sender.edit(
    call.chatId,
    call.messageId,
    alertView(call.content, translator(locale), line),
    call.threadId,
    sub?.posting?.forum ? { forum: sub.posting.forum } : undefined,
  );
  s.o.onResult?.(e, r);
  switch (r.kind) {
    case 'sent':
      await finish(s, e, 'sent', call.messageId);
      return 'next';
    case 'rejected':
    case 'gone':
      await s.o.calls!.save([{ ...call, ended: r.reason }]);
      await finish(s, e, 'dead', `follow-ups ended: ${r.reason}`);
      s.o.log.info({ call: call.id, reason: r.reason }, 'alert message gone; its follow-ups end');
      return 'next';
    case 'retry':
    case 'uncertain':
    case 'paced':
      if (s.now() - e.createdAt > s.retryForMs && r.kind !== 'paced' && !(r.kind === 'retry' && r.rateLimited)) {
        await finish(s, e, 'dead', `gave up after ${e.attempts} attempts: ${r.reason}`);
        return 'next';
      }
      e.state = 'pending';
      e.notBefore = s.now() + (r.kind === 'uncertain' ? 5_000 : r.afterMs);
      await s.o.outbox.update(e);
      wake(s, e.notBefore);
      return 'later';
  }
}
