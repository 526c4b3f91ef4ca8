/**
 * The test alert (`/alerts test`): a real alert marked as a sample. It goes out
 * like any other but is never merged into a burst, recorded as a call or
 * followed up, and a chat that refuses it keeps its subscription. Its id is the
 * mark, written and read here only.
 */
import type { Outbox, OutboxEntry } from '../store/outbox.ts';

const MARK = 'test-';

/** The outbox id of the test alert `subId` asked for at `now`. */
export const testAlertId = (now: number, subId: string): string => `${MARK}${now}-${subId}`;

export const isTestAlert = (e: Pick<OutboxEntry, 'id' | 'content'>): boolean =>
  e.id.startsWith(MARK) || (e.content.kind === 'alert' && e.content.test === true);

/** Queues a test alert in a batch of its own, so it waits for no other alert. */
export function queueTestAlert(outbox: Pick<Outbox, 'enqueue'>, entry: OutboxEntry): Promise<number> {
  if (!isTestAlert(entry)) throw new TypeError(`${entry.id} is not a test alert`);
  return outbox.enqueue(`${MARK}${entry.id}`, [entry]);
}
