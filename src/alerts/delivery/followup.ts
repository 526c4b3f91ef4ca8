/**
 * Calls and their follow-ups on the delivery side: an accepted alert becomes a
 * call of its destination, and a follow-up entry edits the alert in place with
 * the call's latest line.
 */
import type { OutboxEntry } from '../../store/outbox.ts';
import type { Subscription } from '../../store/subscriptions.ts';
import { alertView } from '../../views/cards/alert.ts';
import { mergedView } from '../../views/cards/merged.ts';
import type { Call } from '../../store/calls.ts';
import type { View } from '../../domain/view.ts';
import { tokenKeyOf } from '../../domain/chains.ts';
import type { T } from '../../i18n/index.ts';
import { followupLine } from '../../views/cards/callLine.ts';
import { translator } from '../../i18n/index.ts';
import { formats, type Formats } from '../../i18n/format.ts';
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
    // Each alert of a merged message is a call of its own, scored like any other. A burst's calls
    // are followed up in their message: each edit shows the whole list with every token's move
    // since (followUp). A quiet-hours summary already shows that move when it is sent: no edits.
    const burst = e.content.why === 'burst';
    const members = (await Promise.all(e.content.members.map((id) => outbox.get(id)))).filter(
      (m): m is OutboxEntry & { content: { kind: 'alert' } } => m?.content.kind === 'alert',
    );
    const ids = members.map((m) => m.id);
    const points = [...followupsOf(sub)].sort((a, b) => a - b);
    for (const m of members) {
      const call = callOf(m, m.content, messageId, [], s.now());
      await calls.record(burst && ids.length > 1 && points.length ? { ...call, burst: { calls: ids, points } } : call);
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
  const burst = await burstOf(s, call);
  const view = burst
    ? burstView(burst, translator(locale), formats(locale))
    : alertView(call.content, translator(locale), followupLine(call, translator(locale), formats(locale)));
  e.attempts++;
  const r = await sender.edit(
    call.chatId,
    call.messageId,
    view,
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
      // A burst's message is gone for every call in it.
      await s.o.calls!.save((burst ?? [call]).map((c) => ({ ...c, ended: r.reason })));
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

/** The calls of the burst message `call` is in (each alert of it, in order), or undefined for an alert of its own. */
async function burstOf(s: DeliveryState, call: Call): Promise<Call[] | undefined> {
  if (!call.burst) return undefined;
  // Calls that expired or were cleared (/calls clear) drop out of the list; the message keeps the rest.
  const same = (await s.o.calls!.getMany(call.burst.calls)).filter(
    (c): c is Call => c !== undefined && c.messageId === call.messageId && c.content !== undefined,
  );
  return same.length ? same : undefined;
}

/** A burst message again, each token's line with its move since the alert (the latest sample over the cap then). */
function burstView(calls: readonly Call[], t: T, fmt: Formats): View {
  const multiples = new Map<string, number>();
  for (const c of calls) {
    const last = c.samples.at(-1);
    if (last && c.marketCap && c.marketCap > 0)
      multiples.set(tokenKeyOf(c.token.chain, c.token.address), last.marketCap / c.marketCap);
  }
  const items = calls.map((c) => {
    const content = c.content!;
    const card = content.actions.find((a) => a.command === 'token');
    return { token: content.token, kols: content.kols.map((k) => k.username), at: c.at, ...(card ? { card } : {}) };
  });
  return mergedView({ kind: 'merged', why: 'burst', members: calls.map((c) => c.id), items }, t, { fmt, multiples });
}
