import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../src/log.ts';
import { BUSY_NOTE, drawPicture } from '../../src/pictures/draw.ts';
import { cachedCharts, PICTURE_TTL_MS } from '../../src/pictures/cache.ts';
import type { ChartPool } from '../../src/domain/charts.ts';
import { ChartPoolBusy, createChartPool } from '../../src/views/charts/pool.ts';
import { renderPng } from '../../src/views/charts/render.ts';
import { priceLine } from '../../src/views/charts/priceStrip.ts';
import { THEME } from '../../src/views/charts/theme.ts';
import type { View } from '../../src/domain/view.ts';
import { countColour, decodePng, looksDrawn, type DecodedPng } from '../views/charts/png.ts';
import { asCard, asTable, asText, caller, column, harness, plain } from './harness.ts';

const h = await harness();
after(() => h.close());

const { kols, shills, tokens, tweets } = h.sandbox.data;
const unique = (k: (typeof kols)[number]) =>
  !kols.some((o) => o !== k && o.username.toLowerCase().includes(k.username.toLowerCase()));
const kol = kols.find((k) => unique(k) && shills.filter((s) => s.kolId === k.id).length >= 15)!;
const busy = tokens.find(
  (t) =>
    t.chain_id === 'solana' &&
    /^[A-Z0-9]+$/.test(t.symbol) &&
    tweets.filter((x) => x.tokenIds.includes(t.id)).length > 20,
)!;
const mentioned = new Set(tweets.flatMap((t) => t.tokenIds));
const quiet = tokens.find((t) => t.chain_id === 'solana' && !mentioned.has(t.id))!;

async function send(line: string, pictures: boolean): Promise<View> {
  const view = await h.dispatcher.text(line, caller, { capabilities: { pictures, buttons: true } });
  assert.ok(view, line);
  return view;
}

/** Every picture leaves 1000 px wide; a height of null: taller than wide (laid out for a phone). */
function image(view: View, name: string, width: number, height: number | null, wide = false): DecodedPng {
  assert.ok(view.kind !== 'error', view.kind === 'error' ? view.message : '');
  assert.ok(view.picture, 'no picture');
  assert.equal(view.picture.name, name);
  const img = decodePng(view.picture.png);
  if (height === null) {
    assert.equal(img.width, width);
    assert.ok(wide || img.height > img.width, `${img.width}x${img.height}`);
  } else assert.deepEqual([img.width, img.height], [width, height]);
  assert.ok(looksDrawn(img), 'the picture is blank');
  return img;
}

test('/mindmap adds the token graph with the queried token highlighted, text unchanged', async () => {
  const line = `/mindmap solana ${busy.address} hours:72 limit:10`;
  const graph = await h.api.getTokenMindmap({ chainId: 'solana', address: busy.address, timeFrame: 72, limit: 10 });
  const view = asText(await send(line, true));
  const img = image(view, 'mindmap.png', 1000, 1000);
  assert.match(
    view.picture!.alt,
    new RegExp(`^Token map of \\$${busy.symbol}: ${graph.nodes.length - 1} linked tokens in the last 72h$`),
  );
  // The centre node is the only large patch of the accent colour; the others are blue.
  assert.ok(countColour(img, THEME.accent, 6) > 2_000, 'centre not highlighted');
  assert.ok(countColour(img, THEME.node, 6) > 200 * (graph.nodes.length - 1), 'linked tokens missing');
  assert.equal(plain(view.text), plain(asText(await send(line, false)).text));
});

test('/kol adds the win-rate curve with the scores beside it', async () => {
  const view = asCard(await send(`/kol @${kol.username}`, true));
  const img = image(view, 'winrate.png', 1000, null);
  assert.match(
    view.picture!.alt,
    new RegExp(`^Win rate after a shill of @${kol.username}: \\d+% after 1h, \\d+% after 24h, \\d+% after 7d$`),
  );
  assert.ok(countColour(img, THEME.up, 10) > 1_000, 'no win-rate curve');
  assert.ok(countColour(img, THEME.panel, 2) > 50_000, 'no score panel');
});

test('/momentum adds the price after the shill for the listed tokens', async () => {
  const view = asTable(await send(`/momentum @${kol.username} sort:24h`, true));
  const img = image(view, 'momentum.png', 1000, null);
  const alt = view.picture!.alt;
  assert.ok(alt.endsWith(`shilled by @${kol.username}`), alt);
  const drawn = alt
    .replace(/^Price after the shill of /, '')
    .replace(/, shilled by .*$/, '')
    .split(', ');
  assert.ok(drawn.length >= 1 && drawn.length <= 8, alt);
  // Drawn in the table's order (sorted by 24h), skipping tokens whose 24h has not passed.
  const listed = column(view, 'token').filter(
    (_, i) => column(view, '24h')[i] !== '…' && column(view, '24h')[i] !== '-',
  );
  assert.deepEqual(
    drawn.map((s) => s.replace(/ · .*$/, '')),
    listed.slice(0, drawn.length),
  );
  assert.ok(countColour(img, '#4fc3f7', 10) > 300, 'first series line missing');
});

test('/token adds the day’s price line: green for a day up, red for a day down', async () => {
  const view = asCard(await send(`/token solana ${busy.address}`, true));
  assert.ok(priceLine(busy.changes), 'the sandbox token moved over the day');
  const img = image(view, 'price-strip.png', 1000, null, true);
  const alt = view.picture!.alt;
  assert.match(alt, new RegExp(`^\\$${busy.symbol} price change: 5m [-+]?[\\d.]+%, 1h .*, 4h .*, 24h .*$`));
  const day = busy.changes.h24;
  assert.equal(countColour(img, THEME.up, 10) > 500, day > 0, 'green line');
  assert.equal(countColour(img, THEME.down, 10) > 500, day < 0, 'red line');
});

test('without picture support the answers carry no picture and are otherwise the same', async () => {
  const lines = [
    `/mindmap solana ${busy.address} hours:72`,
    `/kol @${kol.username}`,
    `/momentum @${kol.username}`,
    `/token solana ${busy.address}`,
  ];
  for (const line of lines) {
    const off = await send(line, false);
    const on = await send(line, true);
    assert.notEqual(off.kind, 'error', line);
    assert.equal(off.kind === 'error' ? undefined : off.picture, undefined, line);
    assert.ok(on.kind !== 'error' && on.picture, line);
    const { picture: _, actions: __, ...rest } = on;
    const { actions: ___, ...restOff } = off;
    assert.deepEqual(rest, restOff, line);
  }
});

test('a map with no linked token still answers, without an empty picture', async () => {
  const view = asText(await send(`/mindmap solana ${quiet.address} hours:1`, true));
  assert.match(plain(view.text), /No token is linked to/);
  assert.equal(view.picture, undefined);
});

/** A pool that draws a flat bar in the main thread, counting what it was asked. */
function countingPool(fail?: string): ChartPool & { draws: number } {
  const pool = {
    draws: 0,
    async draw(_kind: string, input: unknown) {
      pool.draws++;
      if (fail) throw new Error(fail);
      const v = (input as { value: number }).value;
      return renderPng(
        `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="${v}" height="10" fill="#2ecc71"/></svg>`,
      );
    },
    stats: () => ({ running: 0, queued: 0, refused: 0 }),
    close: async () => {},
  };
  return pool;
}

test('a failing drawing costs only the picture, and is logged', async () => {
  const lines: string[] = [];
  const log = createLogger({ level: 'warn', secrets: [], destination: { write: (l: string) => lines.push(l) } });
  const ctx = { capabilities: { pictures: true, buttons: true }, log, charts: countingPool('layout exploded') };
  const drawn = await drawPicture(ctx, {
    kind: 'price-strip',
    name: 'broken.png',
    alt: () => 'broken',
    input: () => ({ value: 1 }) as never,
  });
  assert.deepEqual(drawn, {});
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /layout exploded/);
  assert.match(lines[0]!, /without its picture/);
});

test('the same picture is drawn once, and drawn again when the data changes or once it is stale', async () => {
  const charts = countingPool();
  let now = 1_000_000;
  const ctx = {
    capabilities: { pictures: true, buttons: true },
    log: createLogger({ level: 'silent', secrets: [] }),
    charts: cachedCharts(charts, { now: () => now }),
  };
  const spec = (value: number) => ({
    kind: 'price-strip' as const,
    name: 'x.png',
    alt: () => 'x',
    input: () => ({ value }) as never,
  });
  const first = (await drawPicture(ctx, spec(5))).picture;
  const again = (await drawPicture(ctx, spec(5))).picture;
  assert.equal(charts.draws, 1);
  assert.deepEqual(again?.png, first?.png);
  const fresh = (await drawPicture(ctx, spec(15))).picture;
  assert.equal(charts.draws, 2);
  assert.ok(countColour(decodePng(fresh!.png), THEME.up, 4) > countColour(decodePng(first!.png), THEME.up, 4));
  assert.deepEqual(await drawPicture({ ...ctx, capabilities: { pictures: false, buttons: true } }, spec(99)), {});
  assert.equal(charts.draws, 2);
  now += PICTURE_TTL_MS - 1;
  await drawPicture(ctx, spec(15));
  assert.equal(charts.draws, 2, 'still fresh a millisecond before the TTL');
  now += PICTURE_TTL_MS;
  await drawPicture(ctx, spec(15));
  assert.equal(charts.draws, 3, 'stale: drawn again');
});

test('a refused or failed drawing is not kept: the next ask draws again', async () => {
  let refuse = true;
  let draws = 0;
  const pool: ChartPool = {
    async draw() {
      draws++;
      if (refuse) throw new ChartPoolBusy();
      return new Uint8Array([draws]);
    },
    stats: () => ({ running: 0, queued: 0, refused: 0 }),
    close: async () => {},
  };
  const charts = cachedCharts(pool, { now: () => 0 });
  const input = { symbol: 'Z', title: 'Z', changes: { m5: 1, h1: 1, h4: 1, h24: 1 } };
  await assert.rejects(charts.draw('price-strip', input), ChartPoolBusy);
  refuse = false;
  assert.deepEqual([...(await charts.draw('price-strip', input))], [2]);
  assert.deepEqual([...(await charts.draw('price-strip', input))], [2], 'then kept');
  assert.equal(draws, 2);
});

test('the render pool draws in worker threads and refuses past its queue', async () => {
  const pool = createChartPool({ size: 1, maxQueue: 1 });
  try {
    const input = { symbol: 'X', title: 'X price change', changes: { m5: 0.1, h1: 2, h4: -3, h24: 4 } };
    const results = await Promise.allSettled([1, 2, 3].map(() => pool.draw('price-strip', input)));
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected'],
    );
    assert.ok((results[2] as PromiseRejectedResult).reason instanceof ChartPoolBusy);
    for (const r of results.slice(0, 2))
      assert.deepEqual([decodePng((r as PromiseFulfilledResult<Uint8Array>).value).width], [1000]);
    assert.deepEqual(pool.stats(), { running: 0, queued: 0, refused: 1 });
    // A failing job fails alone; the worker keeps serving.
    await assert.rejects(pool.draw('price-strip', null as never));
    assert.ok(looksDrawn(decodePng(await pool.draw('price-strip', input))));
  } finally {
    await pool.close();
  }
});

test('when every worker is busy and the queue is full, the answer goes out without its picture and says so', async () => {
  const pool = createChartPool({ size: 1, maxQueue: 1 });
  const hb = await harness({ charts: pool });
  try {
    const input = { symbol: 'Y', title: 'Y', changes: { m5: 1, h1: 1, h4: 1, h24: 1 } };
    const filling = [pool.draw('price-strip', input), pool.draw('price-strip', input)];
    const view = await hb.dispatcher.text(`/token solana ${quiet.address}`, caller, {
      capabilities: { pictures: true, buttons: true },
    });
    const card = asCard(view!);
    assert.equal(card.picture, undefined);
    assert.equal(card.footer?.split('\n').at(-1), BUSY_NOTE);
    await Promise.all(filling);
    // Once the queue drains, the same command has its picture again.
    const later = asCard(
      (await hb.dispatcher.text(`/token solana ${quiet.address}`, caller, {
        capabilities: { pictures: true, buttons: true },
      }))!,
    );
    assert.ok(later.picture);
    assert.ok(!later.footer?.includes(BUSY_NOTE));
  } finally {
    await hb.close();
    await pool.close();
  }
});
