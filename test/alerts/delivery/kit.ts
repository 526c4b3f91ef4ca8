/**
 * One delivery state over a throwaway store, with a recording Sender whose
 * answers a test scripts per chat: for the tests of each delivery part.
 */
import type { TestContext } from 'node:test';
import { createState, type DeliveryOptions, type DeliveryState } from '../../../src/alerts/delivery/state.ts';
import type { Sender, SendResult } from '../../../src/alerts/delivery/types.ts';
import { silentLogger } from '../../../src/log.ts';
import { openStore, type Store } from '../../../src/store/index.ts';
import type { AlertContent, OutboxEntry } from '../../../src/store/outbox.ts';
import type { Subscription } from '../../../src/store/subscriptions.ts';
import type { View } from '../../../src/domain/view.ts';
import { openSubscription } from '../../helpers/subscriptions.ts';

export interface Recorded {
  readonly op: 'send' | 'edit';
  readonly chatId: string;
  readonly view: View;
  readonly messageId?: string;
}

export async function deliveryKit(t: TestContext, o: Partial<DeliveryOptions> & { perMinute?: number } = {}) {
  const store: Store = await openStore('memory:');
  // Today at noon UTC: near the store's own clock (calls expire by it), and a known time of day.
  let clock = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 12 * 3_600_000;
  const out: Recorded[] = [];
  const answers = new Map<string, () => SendResult>();
  const sender: Sender = {
    platform: 'console',
    async send(chatId, view) {
      const a = answers.get(chatId)?.();
      if (a) return a;
      out.push({ op: 'send', chatId, view });
      return { kind: 'sent', messageId: String(out.length) };
    },
    async edit(chatId, messageId, view) {
      const a = answers.get(chatId)?.();
      if (a) return a;
      out.push({ op: 'edit', chatId, view, messageId });
      return { kind: 'sent', messageId };
    },
    ...(o.perMinute ? { perMinute: () => o.perMinute! } : {}),
  };
  let drains = 0;
  const s: DeliveryState = createState(
    {
      outbox: store.outbox,
      subscriptions: store.subscriptions,
      senders: [sender],
      log: silentLogger(),
      calls: store.calls,
      languages: store.languages,
      now: () => clock,
      ...o,
    },
    async () => {
      drains++;
    },
  );
  t.after(async () => {
    s.stopping = true;
    clearTimeout(s.wakeTimer);
    await store.close();
  });
  let n = 0;
  return {
    s,
    store,
    out,
    answers,
    sender,
    get drains() {
      return drains;
    },
    get now() {
      return clock;
    },
    advance(ms: number) {
      clock += ms;
    },
    async subscribe(chatId: string, more: Partial<Subscription> = {}): Promise<Subscription> {
      const sub = { ...openSubscription('console', chatId), ...more };
      await store.subscriptions.put(sub);
      return sub;
    },
    /** A stored pending alert for `chatId`, its token numbered `n`. */
    async alert(chatId: string, more: Partial<OutboxEntry> = {}): Promise<OutboxEntry> {
      const i = ++n;
      const e: OutboxEntry = {
        id: `tw${i}:console:${chatId}`,
        subId: `console:${chatId}`,
        platform: 'console',
        chatId,
        isGroup: true,
        content: alertContent(i),
        createdAt: clock,
        state: 'pending',
        attempts: 0,
        notBefore: 0,
        ...more,
      };
      await store.outbox.enqueue(`b${i}`, [e]);
      return (await store.outbox.get(e.id))!;
    },
  };
}

export function alertContent(i: number): Extract<AlertContent, { kind: 'alert' }> {
  return {
    kind: 'alert',
    token: {
      name: `Token ${i}`,
      symbol: `TK${i}`,
      chain: 'base',
      address: `0x${i.toString(16).padStart(40, '0')}`,
      score: 90,
      marketCap: 1_000_000,
      liquidity: 50_000,
      change1h: null,
      change24h: null,
    },
    kols: [
      {
        username: `kol${i}`,
        displayName: `KOL ${i}`,
        followers: 10_000,
        score: 80,
        tweetUrl: `https://x.com/kol${i}/status/${1000 + i}`,
        text: `buy TK${i}`,
        tweetedAt: '2026-01-01T00:00:00Z',
      },
    ],
    reason: 'test',
    actions: [],
  };
}

/** Every string in a view (title, body, fields, buttons), for asserting what a reader sees. */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return `${v}\n`;
  if (Array.isArray(v)) return v.map(textOf).join('');
  if (v && typeof v === 'object') return Object.values(v).map(textOf).join('');
  return '';
}
