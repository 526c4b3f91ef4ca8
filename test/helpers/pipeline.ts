/**
 * How far the alert pipeline has got, seen from outside a bot process, so a
 * test waits for a condition rather than for a span of time a slow machine
 * might not fit the work in.
 *
 * Watcher ticks are counted at the sandbox: a tick's feed read starts without a
 * cursor (its later pages carry one), and reads never overlap, so a tick has
 * ended once the next one's first read arrived. The outbox is read from the
 * store the bot writes.
 */
import { openStore } from '../../src/store/index.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import { until } from './wait.ts';

/** Watcher ticks that reached the sandbox: first feed reads (the head read of a first start included). */
export const feedTicks = (sb: Pick<Sandbox, 'requests'>): number =>
  sb.requests.filter((r) => r.operation === 'tweets' && !r.query['cursor']?.length).length;

/** Waits until `n` more ticks have ended: the one after them has begun its read. */
export async function moreTicks(sb: Pick<Sandbox, 'requests'>, n: number, timeoutMs?: number): Promise<void> {
  const from = feedTicks(sb);
  await until(() => feedTicks(sb) >= from + n + 1, `${n} more watcher ticks`, timeoutMs);
}

/**
 * Whether the outbox at `storeUrl` has nothing left to send. An entry is marked
 * sent once the platform took it, so a second send of it comes before this holds.
 */
export async function outboxDrained(storeUrl: string): Promise<boolean> {
  const s = await openStore(storeUrl);
  try {
    return (await s.outbox.pending()).length === 0;
  } finally {
    await s.close();
  }
}
