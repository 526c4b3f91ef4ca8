/**
 * A takeover after a crash runs a request again on another instance: the
 * first instance may already have acted. Each command that changes state must
 * then act once and answer what it answered the first time. Two dispatchers on
 * one store stand for the instance that died and the one that took over; the
 * clock moves between the two runs as it does across a takeover.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Caller } from '../../src/core/command.ts';
import { createDispatcher, type Dispatcher } from '../../src/core/dispatch.ts';
import { silentLogger } from '../../src/log.ts';
import type { Call } from '../../src/store/calls.ts';
import type { View } from '../../src/domain/view.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';
import { caller, harness } from './harness.ts';

const admin: Caller = { ...caller, chatId: 'replay-chat' };
const SUB = `console:${admin.chatId}`;

async function twoInstances(t: import('node:test').TestContext) {
  const h = await harness();
  t.after(() => h.close());
  // Near the real date: stored calls expire by their age.
  const start = Math.floor(Date.now() / 60_000) * 60_000;
  let clock = start;
  const make = (): Dispatcher =>
    createDispatcher({
      commands: h.dispatcher.commands,
      api: h.api,
      store: h.store,
      log: silentLogger(),
      userLimit: { count: 10_000, windowMs: 1_000 },
      now: () => clock,
      charts: sharedChartPool(),
    });
  const [dead, survivor] = [make(), make()];
  let n = 0;
  const say = async (line: string, d: Dispatcher = dead, requestId = `console:req:${++n}`) => {
    const view = await d.text(line, admin, { requestId });
    assert.ok(view);
    return { view, requestId };
  };
  /** The request on the instance that died, then the same request on the one that took over, 61 s later. */
  const replayed = async (line: string, between?: () => Promise<void>): Promise<[View, View]> => {
    const first = await say(line);
    await between?.();
    clock += 61_000;
    const again = await say(line, survivor, first.requestId);
    return [first.view, again.view];
  };
  return { h, say, replayed, now: () => clock, start };
}

const text = (v: View) => JSON.stringify(v);

test('/subscribe replayed after a takeover subscribes once and answers as the first time', async (t) => {
  const { h, say, replayed } = await twoInstances(t);
  const [first, again] = await replayed('/subscribe kol_score:70');
  assert.equal(text(again), text(first), 'the same answer ("subscribed", not "updated")');
  assert.equal((await h.store.subscriptions.all()).filter((s) => s.id === SUB).length, 1);
  // A new request is a new run: this one does say "updated", so the replay above was not run again.
  const later = await say('/subscribe kol_score:70');
  assert.notEqual(text(later.view), text(first));
});

test('/alerts pause replayed after a takeover pauses once: the end stays where the first run put it', async (t) => {
  const { h, say, replayed, start } = await twoInstances(t);
  await say('/subscribe');
  const [first, again] = await replayed('/alerts pause 2h');
  assert.equal(text(again), text(first));
  const sub = await h.store.subscriptions.get(SUB);
  assert.equal(sub?.pausedUntil, start + 2 * 3_600_000, 'two hours from the first run, not from the replay');
});

test('/calls clear replayed after a takeover clears once: a call recorded in between stays', async (t) => {
  const { h, say, replayed, now } = await twoInstances(t);
  await say('/subscribe');
  const call = (id: string): Call => ({
    id,
    subId: SUB,
    platform: 'console',
    chatId: admin.chatId,
    messageId: '1',
    token: { chain: 'solana', address: `${id}addr`, symbol: id.toUpperCase(), name: id },
    kols: ['alpha_kol'],
    tweetIds: ['1'],
    at: now() - 60_000,
    marketCap: 1_000_000,
    liquidity: null,
    points: [],
    next: 0,
    samples: [],
    peak: null,
    content: {} as Call['content'],
  });
  await h.store.calls.record(call('old'));
  const [first, again] = await replayed('/calls clear', async () => {
    await h.store.calls.record(call('new'));
  });
  assert.equal(text(again), text(first), 'the same answer (one call cleared)');
  assert.deepEqual(
    (await h.store.calls.list(SUB, 0)).map((c) => c.id),
    ['new'],
  );
});

test('/digest now replayed after a takeover queues one digest', async (t) => {
  const { h, say, replayed } = await twoInstances(t);
  await say('/subscribe');
  const [first, again] = await replayed('/digest now');
  assert.equal(text(again), text(first));
  const digests = (await h.store.outbox.pending()).filter((e) => e.subId === SUB && e.content.kind === 'digest');
  assert.equal(digests.length, 1, `one digest queued, not one per run: ${digests.map((e) => e.id).join(', ')}`);
});
