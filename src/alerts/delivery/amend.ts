/**
 * More KOLs for an alert already queued or sent. Still waiting: it simply names
 * them all when it goes. Sent: it is edited (an edit is idempotent, so unlike a
 * send it may be retried).
 */
import type { AlertKol, OutboxEntry } from '../../store/outbox.ts';
import { alertView } from '../../views/cards/alert.ts';
import { finish, languageOf, wake, type DeliveryState } from './state.ts';
import { nonceFor, type Sender, type Step } from './types.ts';
import { postingOf } from './compose.ts';
import type { Subscription } from '../../store/subscriptions.ts';

/** The earlier alert's KOLs and the new ones, each named once, oldest first. */
export function mergeKols(a: readonly AlertKol[], b: readonly AlertKol[]): AlertKol[] {
  const seen = new Set(a.map((k) => k.username.toLowerCase()));
  return [...a, ...b.filter((k) => !seen.has(k.username.toLowerCase()) && seen.add(k.username.toLowerCase()))];
}

/** Returns a step when the edit could not be done now; undefined when the KOLs were added. */
export async function addKols(
  s: DeliveryState,
  e: OutboxEntry,
  more: Extract<OutboxEntry['content'], { kind: 'more' }>,
  sender: Sender,
  sub?: Subscription,
): Promise<Step | undefined> {
  const { outbox, calls } = s.o;
  const orig = await outbox.get(more.of);
  if (orig?.content.kind !== 'alert' || orig.state === 'dead') {
    await finish(s, e, 'dead', 'the alert to add to is gone');
    return 'next';
  }
  const merged = { ...orig.content, kols: mergeKols(orig.content.kols, more.kols) };
  if (merged.kols.length === orig.content.kols.length) return undefined;
  if (orig.state === 'sent' && orig.messageId) {
    const view = alertView(merged, await languageOf(s, orig));
    const r = sender.edit
      ? await sender.edit(orig.chatId, orig.messageId, view, orig.threadId, postingOf(orig, sub))
      : await sender.send(e.chatId, view, nonceFor(e.id), e.threadId);
    s.o.onResult?.(e, r);
    if (r.kind === 'retry' || r.kind === 'paced') {
      e.notBefore = s.now() + r.afterMs;
      if (r.kind === 'retry') e.attempts++;
      await outbox.update(e);
      wake(s, e.notBefore);
      return 'later';
    }
    if (r.kind !== 'sent') {
      await finish(s, e, 'dead', `could not update the alert: ${r.kind}`);
      return 'next';
    }
  }
  await outbox.update({ ...orig, content: merged });
  // A merged alert is one call with all its KOLs.
  const call = await calls?.get(orig.id);
  if (call) {
    const kols = [...new Set([...call.kols, ...merged.kols.map((k) => k.username.toLowerCase())])];
    const tweetIds = [
      ...new Set([...call.tweetIds, ...more.kols.map((k) => k.tweetUrl.slice(k.tweetUrl.lastIndexOf('/') + 1))]),
    ];
    await calls!.save([{ ...call, kols, tweetIds, content: merged }]);
  }
  return undefined;
}
