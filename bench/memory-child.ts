/**
 * Child of the watcher benchmark, run twice: `fill <file>` writes 100,000
 * subscriptions into a SQLite store; `hold <file>` is a fresh process that
 * reads and compiles them as the watcher does, and prints its RSS in MB.
 */
import { compile } from '../src/alerts/subindex.ts';
import { openStore } from '../src/store/index.ts';
import { randomSubs } from './subs.ts';

const [mode, file] = process.argv.slice(2);
const store = await openStore(`sqlite:${file}`);
if (mode === 'fill') {
  for (const s of randomSubs(100_000)) await store.subscriptions.put(s);
} else {
  const index = compile(await store.subscriptions.all());
  globalThis.gc?.();
  if (process.env.MEM_DEBUG) process.stderr.write(`${JSON.stringify(process.memoryUsage())}\n`);
  process.stdout.write(`${(process.memoryUsage().rss / 2 ** 20).toFixed(1)}\n`);
  if (index.size !== 100_000) process.exitCode = 1;
}
await store.close();
