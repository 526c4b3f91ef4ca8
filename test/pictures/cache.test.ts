/**
 * The pictures an app drew lately are that app's own and age on its clock:
 * two apps in one process (as the tests run them) each draw their picture once,
 * and a picture is drawn again only once the app's clock passes its TTL.
 * Real rendering in the process's pool, with each app's drawings counted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Caller } from '../../src/core/command.ts';
import type { ChartPool } from '../../src/domain/charts.ts';
import type { View } from '../../src/domain/view.ts';
import { silentLogger } from '../../src/log.ts';
import { PICTURE_TTL_MS, pictureKey } from '../../src/pictures/cache.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';
import { priceLine } from '../../src/views/charts/priceStrip.ts';
import { decodePng, looksDrawn } from '../views/charts/png.ts';

const caller: Caller = {
  platform: 'console',
  userId: 'u1',
  chatId: 'c1',
  chatType: 'private',
  canManage: async () => true,
};

/** The process's pool, counting what one app asks of it. */
function counted(): ChartPool & { draws: number } {
  const pool = sharedChartPool();
  const c = {
    draws: 0,
    draw: ((kind, input) => {
      c.draws++;
      return pool.draw(kind, input);
    }) as ChartPool['draw'],
    stats: () => pool.stats(),
    close: async () => {},
  };
  return c;
}

async function app(now: () => number, charts: ChartPool) {
  return createApp(loadConfig({ STORE_URL: 'memory:' }), silentLogger(), {
    sandboxLiveRate: 0,
    dispatcher: { now, userLimit: { count: 1_000, windowMs: 1_000 } },
    charts,
  });
}

test('each app keeps its own pictures, on its own clock: reused within the TTL, drawn again after it', async (t) => {
  let clockA = 1_000_000;
  const clockB = 1_000_000;
  const poolA = counted();
  const poolB = counted();
  const a = await app(() => clockA, poolA);
  t.after(() => a.close());
  const b = await app(() => clockB, poolB);
  t.after(() => b.close());
  const token = a.sandbox!.data.tokens.find((x) => x.chain_id === 'solana' && priceLine(x.changes))!;
  const line = `/token solana ${token.address}`;
  const ask = async (bot: typeof a): Promise<Uint8Array> => {
    const view: View | undefined = await bot.dispatcher.text(line, caller, {
      capabilities: { pictures: true, buttons: true },
    });
    assert.ok(view && view.kind === 'card' && view.picture, 'a card with its picture');
    assert.ok(looksDrawn(decodePng(view.picture.png)));
    return view.picture.png;
  };

  const first = await ask(a);
  assert.equal(poolA.draws, 1);
  assert.deepEqual(await ask(a), first);
  assert.equal(poolA.draws, 1, 'asked again within the TTL: reused');

  assert.deepEqual(await ask(b), first, 'the same picture');
  assert.equal(poolB.draws, 1, 'drawn by the second app: it does not see the first one’s cache');
  assert.equal(poolA.draws, 1);

  clockA += PICTURE_TTL_MS - 1;
  await ask(a);
  assert.equal(poolA.draws, 1, 'a millisecond before the TTL on the app’s clock: still reused');
  clockA += 1;
  assert.deepEqual(await ask(a), first);
  assert.equal(poolA.draws, 2, 'past the TTL on the app’s clock: drawn again');

  await ask(b);
  assert.equal(poolB.draws, 1, 'the other app’s clock did not move: still reused there');
});

test('a picture is known by its kind and what it shows', () => {
  const input = { symbol: 'X', title: 'X', changes: { m5: 1, h1: 2, h4: 3, h24: 4 } };
  assert.equal(pictureKey('price-strip', input), pictureKey('price-strip', structuredClone(input)));
  assert.notEqual(
    pictureKey('price-strip', input),
    pictureKey('price-strip', { ...input, changes: { ...input.changes, h24: 5 } }),
  );
  assert.notEqual(pictureKey('price-strip', input), pictureKey('mindmap', input as never));
});
