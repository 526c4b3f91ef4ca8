/**
 * Fan-out from the outbox to the platforms. Each destination is a queue of its
 * own, sent in order; many destinations run at once, so one slow or dead chat
 * never holds up the others. Pacing to the platforms' limits lives in each
 * platform's Sender (grammY and discord.js transports), which knows its rules.
 */
import type { Logger } from 'pino';
import type { SubscriptionStore } from '../store/subscriptions.ts';
import { subscriptionId, type DestinationPlatform } from '../store/subscriptions.ts';
import { alertView } from './content.ts';
import type { Outbox, OutboxEntry } from './outbox.ts';
import type { View } from '../views/model.ts';
import type { Lease } from './lease.ts';

export type SendResult =
  | { readonly kind: 'sent'; readonly messageId: string }
  /** Not accepted, safe to send again later (429, 5xx, connection refused). */
  | { readonly kind: 'retry'; readonly afterMs: number; readonly reason: string }
  /** The destination is gone for good (kicked, blocked, deleted, no access). */
  | { readonly kind: 'gone'; readonly reason: string; readonly migrateTo?: string }
  /** The request may have landed (a network error after sending): resending could post twice. */
  | { readonly kind: 'uncertain'; readonly reason: string }
  /** This message was refused (a 400, a view the platform cannot show); the destination is fine. */
  | { readonly kind: 'rejected'; readonly reason: string };

export interface Sender {
  readonly platform: DestinationPlatform;
  /** Sends one alert; never throws. `nonce` is stable per entry (Discord dedupes with it). */
  send(chatId: string, view: View, nonce: string): Promise<SendResult>;
}

export interface DeliveryOptions {
  readonly outbox: Outbox;
  readonly subscriptions: SubscriptionStore;
  readonly senders: readonly Sender[];
  readonly log: Logger;
  /** Only the lease holder sends: checked before a drain and before every send. */
  readonly lease?: Pick<Lease, 'status'>;
  /** Destinations sent to at once; default 256. */
  readonly concurrency?: number;
  /** Attempts for transient failures before an entry is given up; default 8. */
  readonly maxAttempts?: number;
  readonly now?: () => number;
  readonly onResult?: (entry: OutboxEntry, result: SendResult) => void;
  /** After each drain: entries still waiting (outbox depth). */
  readonly onDrained?: (pending: number) => void;
}

export interface Delivery {
  /** Sends everything pending; concurrent calls share one run and trigger one more after it. */
  drain(): Promise<void>;
  /** Stops after in-flight sends finish; pending entries stay in the outbox. */
  stop(): Promise<void>;
}

/** A deterministic nonce of at most 25 characters (Discord's limit) from the entry id. */
export function nonceFor(entryId: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < entryId.length; i++) {
    const c = entryId.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619) >>> 0;
    h2 = Math.imul(h2 ^ c, 2246822519) >>> 0;
  }
  return `k${h1.toString(36)}${h2.toString(36)}`.slice(0, 25);
}

export function createDelivery(o: DeliveryOptions): Delivery {
  const now = o.now ?? Date.now;
  const senders = new Map(o.senders.map((s) => [s.platform, s]));
  const maxAttempts = o.maxAttempts ?? 8;
  const concurrency = o.concurrency ?? 256;
  let running: Promise<void> | undefined;
  let again = false;
  let stopping = false;
  const leading = () => !o.lease || o.lease.status() === 'leader';
  const sleeps = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const entry = { timer: setTimeout(() => (sleeps.delete(entry), resolve()), ms), resolve };
      sleeps.add(entry);
    });

  async function sendOne(e: OutboxEntry): Promise<'next' | 'stop-destination'> {
    const sender = senders.get(e.platform);
    if (!sender) return 'stop-destination'; // platform not running in this process: leave pending
    for (;;) {
      if (stopping || !leading()) return 'stop-destination';
      const wait = e.notBefore - now();
      if (wait > 0) await sleep(wait);
      if (stopping) return 'stop-destination';
      e.state = 'inflight';
      e.attempts++;
      await o.outbox.update(e);
      const r = await sender.send(e.chatId, alertView(e.content), nonceFor(e.id));
      o.onResult?.(e, r);
      switch (r.kind) {
        case 'sent':
          e.state = 'sent';
          e.messageId = r.messageId;
          await o.outbox.update(e);
          return 'next';
        case 'retry':
          if (e.attempts >= maxAttempts && !r.reason.startsWith('429')) {
            e.state = 'dead';
            e.error = `gave up after ${e.attempts} attempts: ${r.reason}`;
            await o.outbox.update(e);
            o.log.warn({ entry: e.id, reason: r.reason }, 'alert given up');
            return 'next';
          }
          e.state = 'pending';
          e.notBefore = now() + r.afterMs;
          await o.outbox.update(e);
          continue;
        case 'rejected':
          e.state = 'dead';
          e.error = `refused by the platform: ${r.reason}`;
          await o.outbox.update(e);
          o.log.warn({ entry: e.id, reason: r.reason }, 'alert refused by the platform');
          return 'next';
        case 'uncertain':
          e.state = 'dead';
          e.error = `not resent after an uncertain send: ${r.reason}`;
          await o.outbox.update(e);
          o.log.warn({ entry: e.id, reason: r.reason }, 'alert send uncertain; not retried to avoid a duplicate');
          return 'next';
        case 'gone':
          await destinationGone(e, r.reason, r.migrateTo);
          return r.migrateTo ? 'next' : 'stop-destination';
      }
    }
  }

  async function destinationGone(e: OutboxEntry, reason: string, migrateTo: string | undefined): Promise<void> {
    const sub = await o.subscriptions.get(e.subId);
    if (migrateTo) {
      // The group became a supergroup: the settings move to the new id (unless the adapter already
      // moved them on the service message), and the alert is re-sent there either way.
      const newId = subscriptionId(e.platform, migrateTo);
      if (sub) {
        await o.subscriptions.put({ ...sub, id: newId, chatId: migrateTo, updatedAt: now() });
        await o.subscriptions.delete(sub.id);
        o.log.info({ from: sub.id, to: newId }, 'subscription migrated');
      }
      Object.assign(e, { chatId: migrateTo, subId: newId, state: 'pending', notBefore: 0 });
      await o.outbox.update(e);
      await sendOne(e);
      return;
    }
    e.state = 'dead';
    e.error = reason;
    await o.outbox.update(e);
    if (sub && !sub.disabled) {
      await o.subscriptions.put({ ...sub, disabled: { reason, at: now() }, updatedAt: now() });
      o.log.warn({ sub: sub.id, reason }, 'destination gone; subscription disabled');
    }
  }

  async function runOnce(): Promise<void> {
    const pending = await o.outbox.pending();
    const byDest = new Map<string, OutboxEntry[]>();
    for (const e of pending) {
      const k = `${e.platform}:${e.chatId}`;
      let q = byDest.get(k);
      if (!q) byDest.set(k, (q = []));
      q.push(e);
    }
    const queues = [...byDest.values()];
    let next = 0;
    const worker = async () => {
      while (next < queues.length && !stopping) {
        const q = queues[next++]!;
        for (const e of q) {
          if ((await sendOne(e)) === 'stop-destination') {
            for (const rest of q.slice(q.indexOf(e) + 1)) {
              if (rest.state === 'pending' && e.state === 'dead') {
                rest.state = 'dead';
                rest.error = e.error;
                await o.outbox.update(rest);
              }
            }
            break;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queues.length) }, worker));
    o.onDrained?.(await o.outbox.compact());
  }

  return {
    drain() {
      if (stopping || !leading()) return Promise.resolve();
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await runOnce();
          } while (again && !stopping);
        } finally {
          running = undefined;
        }
      })();
      return running;
    },
    async stop() {
      stopping = true;
      for (const s of sleeps) {
        clearTimeout(s.timer);
        s.resolve();
      }
      sleeps.clear();
      await running?.catch(() => {});
    },
  };
}
