/**
 * `npm run bench`: prints every figure as a table. Figures, not pass/fail
 * tests: the machine and its load move them; docs/benchmarks.md records the latest.
 */
import { cpus, totalmem } from 'node:os';
import { benchCommands } from './commands.ts';
import { benchWatcher } from './watcher.ts';
import { benchLatency } from './latency.ts';
import { benchPictures } from './pictures.ts';
import { benchContention } from './contention.ts';
import { benchDiscordFanout, benchTelegramFanout } from './fanout.ts';
import { benchTelegramPaid } from './paid.ts';
import { benchIsolation } from './isolation.ts';
import { benchStartup } from './startup.ts';
import { benchI18n } from './i18n.ts';
import { benchDetect } from './detect.ts';
import { benchCalls } from './calls.ts';
import { benchMemberCalls } from './membercalls.ts';
import { benchCost } from './cost.ts';
import { benchWeb } from './web.ts';
import { benchScale } from './scale.ts';
import { printTable, type Row } from './stats.ts';

const only = process.argv.slice(2);
const sections: [string, () => Promise<Row[]>][] = [
  ['commands', () => benchCommands()],
  ['detect', () => benchDetect()],
  ['watcher', () => benchWatcher()],
  ['latency', () => benchLatency()],
  ['pictures', () => benchPictures()],
  ['contention', () => benchContention()],
  ['startup', () => benchStartup()],
  ['i18n', () => benchI18n()],
  ['discord', () => benchDiscordFanout()],
  ['telegram', () => benchTelegramFanout()],
  ['paid', () => benchTelegramPaid()],
  ['isolation', () => benchIsolation()],
  ['calls', () => benchCalls()],
  ['membercalls', () => benchMemberCalls()],
  ['cost', () => benchCost()],
  ['web', () => benchWeb()],
  ['scale', () => benchScale()],
];

const rows: Row[] = [];
for (const [name, run] of sections) {
  if (only.length && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}...\n`);
  rows.push(...(await run()));
}
const cpu = cpus()[0]?.model ?? 'unknown CPU';
process.stdout.write(
  `kolradar benchmark, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} x ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB\n\n`,
);
process.stdout.write(`${printTable(rows)}\n`);
process.exit(0);
