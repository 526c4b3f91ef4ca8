/**
 * Languages: what the CJK chart fonts cost (install size, first render with a
 * CJK label, memory) and that English pays nothing for them (same render time
 * with and without the fallback faces; the per-command chat-language lookup).
 */
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FALLBACK_FILES, setFallbackFaces } from '../src/views/charts/font.ts';
import { momentumSvg, renderPng } from '../src/views/charts/index.ts';
import { sampleMomentum } from '../src/views/charts/samples.ts';
import { createKolClient } from '../src/api/index.ts';
import { createDispatcher } from '../src/core/dispatch.ts';
import { loadCommands } from '../src/core/registry.ts';
import { silentLogger } from '../src/log.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { openStore } from '../src/store/index.ts';
import { CATALOGUES, i18nextT, translator, type T } from '../src/i18n/index.ts';
import { alertView } from '../src/views/cards/alert.ts';
import { kolTableFor } from '../src/views/cards/kolTable.ts';
import { tweetField } from '../src/views/cards/tweets.ts';
import type { AlertContent } from '../src/store/outbox.ts';
import { ms, summary, type Row } from './stats.ts';
import { sharedChartPool } from '../src/views/charts/pool.ts';

const CHILD = fileURLToPath(new URL('./cjk-child.ts', import.meta.url));
const run = promisify(execFile);
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

function dirSize(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? dirSize(p) : statSync(p).size;
  }
  return total;
}

/** The package folder of a font file: node_modules/@scope/name. */
const packageOf = (file: string): string => dirname(dirname(file));

async function child(mode: 'en' | 'cjk'): Promise<{ first: number; warm: number; rssMb: number }> {
  const { stdout } = await run(process.execPath, [CHILD, mode]);
  return JSON.parse(stdout) as { first: number; warm: number; rssMb: number };
}

export async function benchI18n(runs = 5): Promise<Row[]> {
  const rows: Row[] = [];
  const used = FALLBACK_FILES.reduce((n, f) => n + statSync(f).size, 0);
  const installed = FALLBACK_FILES.reduce((n, f) => n + dirSize(packageOf(f)), 0);
  rows.push({
    area: 'i18n',
    metric: 'CJK fonts: regular TTFs used / packages installed (all 9 weights)',
    value: `${mb(used)} / ${mb(installed)}`,
  });

  const en: { first: number; rssMb: number }[] = [];
  const cjk: { first: number; warm: number; rssMb: number }[] = [];
  for (let i = 0; i < runs; i++) {
    en.push(await child('en'));
    cjk.push(await child('cjk'));
  }
  const p50 = (xs: number[]) => summary(xs).p50;
  rows.push({
    area: 'i18n',
    metric: 'first chart render in a fresh process: English / first CJK label (fonts read) / warm CJK, p50',
    value: `${ms(p50(en.map((r) => r.first)), 1)} / ${ms(p50(cjk.map((r) => r.first)), 1)} / ${ms(p50(cjk.map((r) => r.warm)), 1)}`,
  });
  rows.push({
    area: 'i18n',
    metric: 'process RSS after English only / after a CJK chart, p50',
    value: `${p50(en.map((r) => r.rssMb)).toFixed(0)} MB / ${p50(cjk.map((r) => r.rssMb)).toFixed(0)} MB`,
  });

  // English charts with and without the fallback faces, interleaved so load drifts hit both alike.
  const svg = momentumSvg(sampleMomentum(8, 5));
  for (let i = 0; i < 3; i++) renderPng(svg);
  const on: number[] = [];
  const off: number[] = [];
  for (let i = 0; i < 60; i++) {
    setFallbackFaces(i % 2 === 0);
    const t0 = performance.now();
    renderPng(svg);
    (i % 2 === 0 ? on : off).push(performance.now() - t0);
  }
  setFallbackFaces(true);
  rows.push({
    area: 'i18n',
    metric: 'English momentum chart p50: with fallback faces / without',
    value: `${ms(p50(on))} / ${ms(p50(off))}`,
  });

  // English answers through the catalogue (compiled templates, as the bot runs; and i18next's own t)
  // vs the same builders handed fixed strings (what literals cost): a 10-row KOL table, 5 tweet
  // fields and an alert, interleaved so load drifts hit all alike.
  const english = translator('en');
  const plainI18next = i18nextT('en');
  const literal = fixedEnglish();
  const items = Array.from({ length: 10 }, (_, i) => ({
    user_ranking: i + 1,
    kol: `kol${i}`,
    score_v2: 70.5 + i,
    winrate: 0.52,
    sm_follower: 1234,
    total_token: 17,
    mention: 9876,
  })) as never[];
  const tweet = {
    username: 'satoshi',
    followers: 12_345,
    tweetedAt: '2026-11-23T00:00:00Z',
    content: 'gm $PEPE',
    twitterId: '1',
    likes: 10,
    views: 1000,
  };
  const alert: AlertContent = {
    kind: 'alert',
    token: {
      name: 'Pepe',
      symbol: 'PEPE',
      chain: 'solana',
      address: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm',
      score: 91.2,
      marketCap: 2_345_678,
      liquidity: 12_345,
      change1h: 1.2,
      change24h: -4.5,
    },
    kols: [
      {
        username: 'satoshi',
        displayName: 'Satoshi',
        followers: 12_345,
        score: 77.7,
        tweetUrl: 'https://x.com/s/status/1',
        text: 'gm',
        tweetedAt: '2026-11-23T00:00:00Z',
      },
    ],
    reason: 'chain solana',
    checks: [
      { key: 'checks.chain', values: { chain: 'solana' } },
      { key: 'checks.tokenScorePass', values: { value: { dec: 91.2 }, min: { dec: 70 } } },
    ],
    actions: [],
  };
  const answers = (t: T): void => {
    kolTableFor('mentions', items, t);
    for (let i = 0; i < 5; i++) tweetField(tweet, 1_763_856_000_000, 220, t);
    alertView(alert, t);
  };
  const viaCatalogue: number[] = [];
  const viaI18next: number[] = [];
  const viaLiterals: number[] = [];
  const three = [
    [english, viaCatalogue],
    [plainI18next, viaI18next],
    [literal, viaLiterals],
  ] as const;
  for (let i = 0; i < 4000; i++) {
    // Each goes first in turn: whoever runs second finds the caches warm.
    for (const [t, out] of [...three.slice(i % 3), ...three.slice(0, i % 3)]) {
      const t0 = performance.now();
      answers(t);
      out.push(performance.now() - t0);
    }
  }
  rows.push({
    area: 'i18n',
    metric: 'English views (10-row table + 5 tweets + an alert) p50: catalogue / i18next t() / fixed strings',
    value: `${ms(summary(viaCatalogue).p50, 3)} / ${ms(summary(viaI18next).p50, 3)} / ${ms(summary(viaLiterals).p50, 3)}`,
  });

  rows.push(await wholeAnswers(literal));

  // The one new step of every command: reading the chat's language (SQLite, as in production).
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-bench-lang-'));
  const store = await openStore(`sqlite:${join(dir, 'bench.sqlite')}`);
  try {
    await store.languages.set('telegram', '-100', 'ru');
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t0 = performance.now();
      await store.languages.get('telegram', String(i % 2 ? -100 : i));
      times.push(performance.now() - t0);
    }
    const s = summary(times);
    rows.push({
      area: 'i18n',
      metric: 'chat-language lookup per command (SQLite) p50 / p99',
      value: `${ms(s.p50, 3)} / ${ms(s.p99, 3)}`,
    });
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

/**
 * What the answers cost before the catalogue: the same English text from fixed strings, each
 * key a function of its values (as a template literal was), `_one` for 1 and `_other` otherwise.
 */
function fixedEnglish(): T {
  const texts = new Map<string, string>();
  const walk = (tree: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(tree))
      if (typeof v === 'string') texts.set(prefix + k, v);
      else walk(v as Record<string, unknown>, `${prefix}${k}.`);
  };
  walk(CATALOGUES.en as unknown as Record<string, unknown>, '');
  const fns = new Map<string, (v: Record<string, unknown>) => string>();
  for (const [key, text] of texts) {
    const parts = text.split(/\{\{(\w+)\}\}/);
    fns.set(key, (v) => {
      let out = parts[0]!;
      for (let i = 1; i < parts.length; i += 2) out += String(v[parts[i]!] ?? '') + parts[i + 1]!;
      return out;
    });
  }
  const none: Record<string, unknown> = {};
  return ((key: string, values?: Record<string, unknown>) => {
    const v = values ?? none;
    const fn = fns.get(key) ?? fns.get(`${key}_${v.count === 1 ? 'one' : 'other'}`) ?? fns.get(`${key}_other`);
    return fn ? fn(v) : key;
  }) as unknown as T;
}

/**
 * Whole English answers through the dispatcher (parse, validate, command, views, buttons stored),
 * from the client's cache so the upstream adds nothing: the catalogue against fixed strings,
 * interleaved so load drifts hit both alike.
 */
async function wholeAnswers(literal: T): Promise<Row> {
  const sb = await startSandbox();
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  const store = await openStore('memory:');
  try {
    const commands = await loadCommands();
    const base = {
      commands,
      api,
      store,
      charts: sharedChartPool(),
      log: silentLogger(),
      userLimit: { count: 1e9, windowMs: 1 },
    };
    const viaCatalogue = createDispatcher(base);
    const viaLiterals = createDispatcher({ ...base, translate: () => literal });
    const caller = {
      platform: 'console' as const,
      userId: 'bench',
      chatId: 'bench',
      chatType: 'private' as const,
      locale: 'en',
      canManage: async () => true,
    };
    const token = sb.data.tokens.find((t) => t.chain_id === 'solana' && t.marketcap > 0)!;
    const lines = [`/token solana ${token.address}`, `/kol @${sb.data.kols[0]!.username}`, '/kols', '/tweets'];
    const times = { catalogue: [] as number[], literal: [] as number[] };
    for (let i = 0; i < 2400; i++) {
      const line = lines[i % lines.length]!;
      const pair = [
        [viaCatalogue, times.catalogue],
        [viaLiterals, times.literal],
      ] as const;
      // Each goes first every other round: the second run of a line finds the caches warm.
      for (const [d, out] of Math.floor(i / lines.length) % 2 ? [...pair].reverse() : pair) {
        const t0 = performance.now();
        await d.text(line, caller);
        if (i >= 200) out.push(performance.now() - t0); // the first rounds fill the cache and warm up
      }
    }
    return {
      area: 'i18n',
      metric:
        'English answers, whole command from the client cache (/token, /kol, /kols, /tweets) p50: catalogue / fixed strings',
      value: `${ms(summary(times.catalogue).p50, 3)} / ${ms(summary(times.literal).p50, 3)}`,
    };
  } finally {
    await api.close();
    await store.close();
    await sb.close();
  }
}

if (import.meta.main) {
  const { printTable } = await import('./stats.ts');
  process.stdout.write(`${printTable(await benchI18n())}\n`);
}
