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
import { openStore } from '../src/store/index.ts';
import { ms, summary, type Row } from './stats.ts';

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
  rows.push({ area: 'i18n', metric: 'CJK fonts: regular TTFs used / packages installed (all 9 weights)', value: `${mb(used)} / ${mb(installed)}` });

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
  rows.push({ area: 'i18n', metric: 'process RSS after English only / after a CJK chart, p50', value: `${p50(en.map((r) => r.rssMb)).toFixed(0)} MB / ${p50(cjk.map((r) => r.rssMb)).toFixed(0)} MB` });

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
  rows.push({ area: 'i18n', metric: 'English momentum chart p50: with fallback faces / without', value: `${ms(p50(on))} / ${ms(p50(off))}` });

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
    rows.push({ area: 'i18n', metric: 'chat-language lookup per command (SQLite) p50 / p99', value: `${ms(s.p50, 3)} / ${ms(s.p99, 3)}` });
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.main) {
  const { printTable } = await import('./stats.ts');
  process.stdout.write(`${printTable(await benchI18n())}\n`);
}
