/**
 * Child of the scale benchmark (issue #42), a fresh process per run:
 *   fill <url> <n>            writes n realistic subscriptions into the store at url;
 *   hold <url> <n> <tweets>   opens the store as the bot does, reads and indexes every
 *                             subscription (timed from the process's start), matches feed
 *                             pages, applies single changes, and prints JSON with its RSS.
 */
import { readFileSync } from 'node:fs';
import type { TweetListItem } from '../src/api/index.ts';
import { tweetFacts } from '../src/alerts/matcher.ts';
import { compileLean, leanSubscription } from '../src/alerts/subindex.ts';
import { openStore } from '../src/store/index.ts';
import { realisticSubs } from './subs.ts';

const [mode, url, count, tweetsFile] = process.argv.slice(2);
const n = Number(count);

if (mode === 'fill') {
  const store = await openStore(url!);
  const subs = realisticSubs(n);
  for (let i = 0; i < subs.length; i += 10_000)
    await store.raw.putRows(
      subs
        .slice(i, i + 10_000)
        .map((s) => ({ key: `sub::${s.id}`, value: JSON.stringify({ value: s }), expiresAt: null })),
    );
  await store.raw.putRows([{ key: 'sub::_version', value: JSON.stringify({ value: 'filled' }), expiresAt: null }]);
  await store.close();
  process.exit(0);
}

const store = await openStore(url!);
const subs = store.subscriptions;
const cursor = await subs.changes(null);
// As the watcher holds them (alerts/tick.ts).
const index = await compileLean(subs.each());
// performance.now() counts from the process's start: loading the code is part of getting ready.
const readyMs = performance.now();
const rssReady = process.memoryUsage().rss;

const pages = JSON.parse(readFileSync(tweetsFile!, 'utf8')) as TweetListItem[][];
const facts = pages.map((p) => p.map((t) => tweetFacts(t)).filter((f) => f !== undefined));
const reads: number[] = [];
let matched = 0;
for (let i = 0; i < 120; i++) {
  const page = facts[i % facts.length]!;
  const t0 = performance.now();
  let m = 0;
  for (const f of page) m += index.match(f, Date.now()).length;
  const took = performance.now() - t0;
  if (i >= 20) reads.push(took); // the first reads warm the code up
  matched = Math.max(matched, m);
}

// One subscription changed at a time: in the index alone, and end to end (store write,
// the journal read by the watcher, the subscription read back, the index updated).
const sample = realisticSubs(n).filter((_, i) => i % Math.max(1, Math.floor(n / 500)) === 0);
const inIndex: number[] = [];
for (const s of sample) {
  const changed = { ...s, filters: { ...s.filters, minTokenScore: s.filters.minTokenScore === 70 ? 80 : 70 } };
  const t0 = performance.now();
  index.put(leanSubscription(changed));
  inIndex.push(performance.now() - t0);
}
const endToEnd: number[] = [];
let at = cursor.cursor;
for (const s of sample.slice(0, 200)) {
  await subs.put({ ...s, pausedUntil: Date.now() + 3_600_000 });
  const t0 = performance.now();
  const c = await subs.changes(at);
  at = c.cursor;
  if (c.ids === null) throw new Error('the journal lost a change: a reload was asked for');
  for (const id of c.ids) {
    const now = await subs.get(id);
    if (now) index.put(leanSubscription(now));
    else index.remove(id);
  }
  endToEnd.push(performance.now() - t0);
}
await store.close();
process.stdout.write(
  `${JSON.stringify({
    size: index.size,
    readyMs,
    rssReadyMb: rssReady / 2 ** 20,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    reads,
    matched,
    inIndex,
    endToEnd,
  })}\n`,
);
process.exit(0);
