/**
 * `npm run screenshots`: the pictures as the bot sends them, and the community
 * page as Chromium draws it (web-shots.ts), for the README and docs/.
 * Runs the real commands through the core against an in-process sandbox with
 * a fixed seed and a frozen clock, so the same checkout writes the same files.
 * Usage: node scripts/screenshots.ts [outDir=docs/images]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createKolClient } from '../src/api/index.ts';
import type { Caller } from '../src/core/command.ts';
import { createDispatcher } from '../src/core/dispatch.ts';
import { loadCommands } from '../src/core/registry.ts';
import { silentLogger } from '../src/log.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { openStore } from '../src/store/index.ts';
import { momentumSvg, renderPng } from '../src/views/charts/index.ts';
import { sampleMomentum } from '../src/views/charts/samples.ts';
import { MarketWalk } from '../src/sandbox/market.ts';
import type { Call } from '../src/store/calls.ts';
import { memberCall } from '../src/store/membercalls.ts';
import { SAMPLE_ALERT } from '../bench/fanout.ts';
import { sharedChartPool } from '../src/views/charts/pool.ts';
import { webShots } from './web-shots.ts';

const SEED = 20240601;
const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const HOUR = 3_600_000;
const MAP_LIMIT = 20;

// The sandbox filters by its own clock: freezing it keeps every time window identical run to run.
Date.now = () => NOW;

const outDir = resolve(process.argv[2] ?? 'docs/images');
const caller: Caller = {
  platform: 'console',
  userId: 'screenshots',
  chatId: 'screenshots',
  chatType: 'private',
  canManage: async () => true,
};

const sandbox = await startSandbox({ seed: SEED, now: NOW, live: false });
const api = createKolClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
const store = await openStore('memory:');
try {
  const commands = await loadCommands();
  const dispatcher = createDispatcher({
    charts: sharedChartPool(),
    commands,
    api,
    store,
    log: silentLogger(),
    now: () => NOW,
    userLimit: { count: 1_000, windowMs: 1_000 },
  });
  const { tokens, tweets, kols, shills } = sandbox.data;
  const plain = (s: string) => /^[A-Z0-9]{2,8}$/.test(s);

  // The busiest Solana token of the last day whose map has only plainly named tokens makes a full, readable picture.
  const recent = new Map<number, number>();
  for (const t of tweets)
    if (t.tweetedMs > NOW - 24 * HOUR) for (const id of t.tokenIds) recent.set(id, (recent.get(id) ?? 0) + 1);
  const candidates = tokens
    .filter((t) => t.chain_id === 'solana' && plain(t.symbol))
    .sort((a, b) => (recent.get(b.id) ?? 0) - (recent.get(a.id) ?? 0) || a.id - b.id);
  let token = candidates[0]!;
  for (const t of candidates.slice(0, 20)) {
    const graph = await api.getTokenMindmap({ chainId: 'solana', address: t.address, timeFrame: 24, limit: MAP_LIMIT });
    if (Object.values(graph.tokens).every((x) => plain(x.symbol))) {
      token = t;
      break;
    }
  }
  // The KOL with the longest record, so every window has data.
  const shillCount = (id: number) => shills.filter((s) => s.kolId === id).length;
  const kol = kols
    .filter((k) => /^[a-z0-9_]+$/i.test(k.username))
    .sort((a, b) => shillCount(b.id) - shillCount(a.id) || a.id - b.id)[0]!;

  const shots: [file: string, line: string][] = [
    ['mindmap.png', `/mindmap solana ${token.address} hours:24 limit:${MAP_LIMIT}`],
    ['winrate.png', `/kol @${kol.username}`],
    ['momentum.png', `/momentum @${kol.username} sort:24h`],
    ['price-strip.png', `/token solana ${token.address}`],
  ];
  await mkdir(outDir, { recursive: true });
  for (const [file, line] of shots) {
    const view = await dispatcher.text(line, caller, { capabilities: { pictures: true, buttons: true } });
    if (!view || view.kind === 'error') throw new Error(`${line}: ${view ? view.message : 'not a command'}`);
    if (!view.picture) throw new Error(`${line}: answered without a picture`);
    const path = join(outDir, file);
    await writeFile(path, view.picture.png);
    process.stdout.write(
      `${path}  ${(view.picture.png.byteLength / 1024).toFixed(0)} KB  ${line}\n  alt: ${view.picture.alt}\n`,
    );
  }
  // One answer in another language: /momentum for a caller whose app speaks Chinese (title, axes, legend from the catalogue).
  const zhLine = `/momentum @${kol.username} sort:24h`;
  const zh = await dispatcher.text(
    zhLine,
    { ...caller, chatId: 'screenshots-zh', locale: 'zh-CN' },
    { capabilities: { pictures: true, buttons: true } },
  );
  if (!zh || zh.kind === 'error' || !zh.picture) throw new Error(`${zhLine} (zh): no picture`);
  const zhPath = join(outDir, 'momentum-zh.png');
  await writeFile(zhPath, zh.picture.png);
  process.stdout.write(
    `${zhPath}  ${(zh.picture.png.byteLength / 1024).toFixed(0)} KB  ${zhLine} (Chinese caller)\n  alt: ${zh.picture.alt}\n`,
  );
  // The scorecard: twelve calls made 1-3 days ago in this chat, their market caps walked by the sandbox's own random walk.
  const called = tokens
    .filter((t) => t.marketcap > 0 && plain(t.symbol))
    .slice(0, 12)
    .map((t) => structuredClone(t));
  const walkFrom = NOW - 72 * HOUR;
  const walk = new MarketWalk(called, SEED, walkFrom);
  const caps = new Map<number, number>();
  const at = (ms: number) => {
    walk.advance(ms);
    return new Map(called.map((t) => [t.id, t.marketcap]));
  };
  const sampled: { t: (typeof called)[number]; at: number; base: number; samples: number[] }[] = called.map((t, i) => ({
    t,
    at: walkFrom + (i * 4 + 1) * HOUR,
    base: 0,
    samples: [],
  }));
  const times = sampled
    .flatMap((c) => [c.at, c.at + HOUR, c.at + 6 * HOUR, c.at + 24 * HOUR].map((ms, k) => ({ c, ms, k })))
    .sort((a, b) => a.ms - b.ms);
  for (const { c, ms, k } of times) {
    const cap = at(ms).get(c.t.id)!;
    if (k === 0) c.base = cap;
    else c.samples.push(cap);
  }
  void caps;
  for (const [i, c] of sampled.entries()) {
    const k = kols[i % 5]!;
    const call: Call = {
      id: `shot-${i}`,
      subId: 'console:screenshots',
      platform: 'console',
      chatId: 'screenshots',
      messageId: String(i + 1),
      token: { chain: c.t.chain_id, address: c.t.address, symbol: c.t.symbol, name: c.t.name },
      kols: [k.username.toLowerCase()],
      tweetIds: [String(i)],
      at: c.at,
      marketCap: c.base,
      liquidity: null,
      points: [60, 360, 1440],
      next: 3,
      samples: c.samples.map((m, j) => ({
        at: c.at + [1, 6, 24][j]! * HOUR,
        marketCap: m,
        point: [60, 360, 1440][j]!,
      })),
      peak: Math.max(c.base, ...c.samples),
      content: {
        ...(SAMPLE_ALERT as Extract<typeof SAMPLE_ALERT, { kind: 'alert' }>),
        token: { ...(SAMPLE_ALERT as Extract<typeof SAMPLE_ALERT, { kind: 'alert' }>).token, symbol: c.t.symbol },
      },
    };
    await store.calls.record(call);
  }
  {
    const line = '/calls period:7d';
    const view = await dispatcher.text(line, caller, { capabilities: { pictures: true, buttons: true } });
    if (!view || view.kind === 'error' || !view.picture) throw new Error(`${line}: no picture`);
    const path = join(outDir, 'calls.png');
    await writeFile(path, view.picture.png);
    process.stdout.write(
      `${path}  ${(view.picture.png.byteLength / 1024).toFixed(0)} KB  ${line}\n  alt: ${view.picture.alt}\n`,
    );
  }
  // A member's call card: the scorecard's best-moving token, called by @alice, its samples the walk's.
  {
    const c = [...sampled].sort((a, b) => Math.max(...b.samples) / b.base - Math.max(...a.samples) / a.base)[0]!;
    const board = 'console:screenshots';
    await store.members.setOn(board, true);
    const made = await store.members.call(
      memberCall({
        board,
        platform: 'console',
        chatId: 'screenshots',
        messageId: 'm1',
        member: { id: 'alice', name: '@alice', handle: 'alice' },
        token: { chain: c.t.chain_id, address: c.t.address, symbol: c.t.symbol, name: c.t.name },
        marketCap: c.base,
        liquidity: null,
        at: c.at,
        points: [60, 360, 1440],
        nonce: 'm1',
      }),
    );
    if (made.kind !== 'recorded') throw new Error('the member call was not recorded');
    await store.calls.save([
      {
        ...made.call,
        next: 3,
        samples: c.samples.map((m, j) => ({
          at: c.at + [1, 6, 24][j]! * HOUR,
          marketCap: m,
          point: [60, 360, 1440][j]!,
        })),
        peak: Math.max(c.base, ...c.samples),
      },
    ]);
    const view = await dispatcher.run('stats', { call: made.call.id }, caller, {
      capabilities: { pictures: true, buttons: true },
    });
    if (view.kind !== 'text' || !view.picture) throw new Error('the call card: no picture');
    const path = join(outDir, 'call-card.png');
    await writeFile(path, view.picture.png);
    process.stdout.write(
      `${path}  ${(view.picture.png.byteLength / 1024).toFixed(0)} KB  call card\n  alt: ${view.picture.alt}\n`,
    );
  }
  // Names in Chinese, Korean, Japanese and Russian, as communities name their tokens. Drawn from the chart
  // functions: the sandbox has no such names.
  const base = sampleMomentum(4, 5);
  const names = ['龙币', '한국토큰', 'ミーム', 'МЕМКОИН'];
  const cjk = renderPng(
    momentumSvg({
      ...base,
      title: 'Дмитрий Криптонов · 加密 KOL',
      tokens: base.tokens.map((t, i) => ({ ...t, symbol: names[i]! })),
    }),
  );
  const cjkPath = join(outDir, 'momentum-cjk.png');
  await writeFile(cjkPath, cjk);
  process.stdout.write(
    `${cjkPath}  ${(cjk.byteLength / 1024).toFixed(0)} KB  momentum chart with CJK and Cyrillic names\n`,
  );
  // The community page of this chat: its board (members' calls added there) and a call page.
  const plainTokens = tokens.filter((t) => t.marketcap > 0 && plain(t.symbol)).slice(12);
  await webShots(
    { store, api, commands, charts: sharedChartPool(), now: NOW, tokens: plainTokens, chatId: 'screenshots' },
    outDir,
  );
} finally {
  await api.close();
  await store.close();
  await sandbox.close();
}
