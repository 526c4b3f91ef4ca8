/**
 * A burst streams: each alert goes out as soon as its own market answer (operation 2) is in, in
 * feed order per destination. The market is a gate the test opens one answer at a time; what
 * reached the sender is counted between openings, never timed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKolClient, type KolClient } from '../../src/api/index.ts';
import { createDelivery, type Sender } from '../../src/alerts/delivery.ts';
import { createWatcher } from '../../src/alerts/watcher.ts';
import { silentLogger } from '../../src/log.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { localLease } from '../../src/store/lease.ts';
import { openStore } from '../../src/store/index.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { nothingMoreAfter, until } from '../helpers/wait.ts';

test('a 6-tweet burst streams: the first alert reaches the platform before the later market answers are given, each chat in feed order', async (t) => {
  const sb = await startSandbox({ authors: 'full' });
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
  const store = await openStore('memory:');
  t.after(async () => {
    await store.close();
    await api.close();
    await sb.close();
  });
  await store.subscriptions.put(openSubscription('console', 'all'));
  /** Market requests waiting for the test to let their answer through, by token address. */
  const gate: { address: string; open: () => void }[] = [];
  let released = false;
  const market: KolClient = {
    ...api,
    getTokenAnalytics: async (p, o) => {
      const answer = await api.getTokenAnalytics(p, o);
      if (!released) await new Promise<void>((open) => gate.push({ address: p.tokenAddress ?? '', open }));
      return answer;
    },
  };
  const sent: { chat: string; symbol: string }[] = [];
  const sender: Sender = {
    platform: 'console',
    async send(chat, view) {
      sent.push({ chat, symbol: view.kind === 'card' ? view.title.split(' ')[0]! : '?' });
      return { kind: 'sent', messageId: String(sent.length) };
    },
  };
  const log = silentLogger();
  const delivery = createDelivery({ outbox: store.outbox, subscriptions: store.subscriptions, senders: [sender], log });
  const watcher = createWatcher({
    api: market,
    subscriptions: store.subscriptions,
    outbox: store.outbox,
    state: store.watch,
    pages: store.pages,
    delivery,
    lease: localLease(),
    log,
    cron: '0 0 1 1 *',
    marketHedgeMs: false,
  });
  t.after(async () => {
    // A failed assertion must not leave the tick waiting on the gate for ever.
    released = true;
    for (const g of gate) g.open();
    await watcher.stop();
  });
  await watcher.tick();
  // Five tokens on one chain, the fourth tweet's on another (its market is among the first four asked).
  const named = sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol));
  const same = named.filter((x) => x.chain_id === named[0]!.chain_id).slice(0, 5);
  const tokens = [...same.slice(0, 3), named.find((x) => x.chain_id !== named[0]!.chain_id)!, ...same.slice(3)];
  for (const tok of tokens) sb.addTweets(1, { token: tok.id, tokenScore: 90, kolScore: 90 });
  // A second chat hears only the fourth token of the burst.
  await store.subscriptions.put(openSubscription('console', 'other', { chains: [tokens[3]!.chain_id] }));
  const tick = watcher.tick();
  const addressOf = (i: number) => tokens[i]!.address;
  const open = async (i: number) => {
    const g = await until(() => gate.find((x) => x.address === addressOf(i)) ?? undefined, `market request ${i}`);
    g.open();
  };
  // The oldest tweet's answer first: its alert goes out while five answers are still held.
  await open(0);
  await until(() => sent.some((s) => s.chat === 'all') || undefined, 'the first alert at the platform');
  assert.deepEqual(
    sent.map((s) => s.symbol),
    [tokens[0]!.symbol],
    'the first alert, before the later answers',
  );
  // The fourth tweet's answer next: the second chat gets it at once; the first chat waits for tweets 2 and 3 (feed order).
  await open(3);
  await until(() => sent.some((s) => s.chat === 'other') || undefined, 'the second chat’s alert');
  await nothingMoreAfter(
    () => sent.filter((s) => s.chat === 'all').length,
    () => delivery.drain(),
    'no alert of the first chat ahead of its turn',
  );
  // The rest, as they come.
  released = true;
  for (const g of gate) g.open();
  await tick;
  await until(() => sent.filter((s) => s.chat === 'all').length === 6 || undefined, 'all six alerts');
  assert.deepEqual(
    sent.filter((s) => s.chat === 'all').map((s) => s.symbol),
    tokens.map((x) => x.symbol),
    'in feed order',
  );
});
