/**
 * What a default install costs upstream: a simulated day with the sandbox.
 * The feed's pace comes from the default configuration (FEED_REQUESTS_PER_MINUTE
 * where it exists, else WATCH_CRON), so whoever changes it reruns
 * `npm run bench cost` and copies the rows into docs/operations.md ("What it costs upstream").
 *
 * The day: the real watcher, delivery and follow-ups against the embedded
 * sandbox, one tick per feed read the default pace allows, the sandbox feed
 * adding tweets at its default live rate (0.2 a second), one chat subscribed
 * with the default filters. The follow-up clock runs on simulated time, so
 * follow-ups due over the day are read too. Commands are counted one by one,
 * cold (nothing cached) and again at once (cached).
 */
import { createApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { silentLogger } from '../src/log.ts';
import type { Caller } from '../src/core/command.ts';
import type { Row } from './stats.ts';

/** The sandbox's default live rate (app.ts): the feed a default install reads. */
const TWEETS_PER_SECOND = 0.2;
const DAY_MS = 86_400_000;

/** Feed reads a minute of a default install: its configured pace, read from the config itself. */
export function feedReadsPerMinute(config: Config): number {
  if (config.feedRequestsPerMinute !== undefined) return config.feedRequestsPerMinute;
  const fields = (config.watchCron ?? '*/30 * * * * *').trim().split(/\s+/);
  const every = (f: string, unit: number) => (f === '*' ? unit : /^\*\/(\d+)$/.test(f) ? unit / Number(f.slice(2)) : 1);
  // Six fields: seconds first; five: minutes first.
  return fields.length === 6 ? every(fields[0]!, 60) * (fields[1] === '*' ? 1 : 1 / 60) : every(fields[0]!, 1);
}

const caller: Caller = {
  platform: 'console',
  userId: 'u',
  chatId: 'day',
  chatType: 'group',
  canManage: async () => true,
};

export async function benchCost(): Promise<Row[]> {
  const defaults = loadConfig({});
  const perMinute = feedReadsPerMinute(defaults);
  const ticks = Math.round(perMinute * 60 * 24);
  const stepMs = DAY_MS / ticks;
  let now = Date.now();
  const clock = () => now;
  const app = await createApp(
    loadConfig({ STORE_URL: 'memory:', WATCH_CRON: '0 0 1 1 *' }), // ticks driven below, one per feed read
    silentLogger(),
    { sandboxLiveRate: 0, sandboxMarket: { clock }, dispatcher: { now: clock } },
  );
  const sb = app.sandbox!;
  let sent = 0;
  await app.dispatcher.run('subscribe', {}, caller);
  const watcher = app.startAlerts(
    [{ platform: 'console', send: async () => ({ kind: 'sent', messageId: String(++sent) }) }],
    { followupNow: clock, digestSchedule: false },
  );
  await watcher.tick();
  sb.resetRequests();
  const perTick = (TWEETS_PER_SECOND * stepMs) / 1000;
  let owed = 0;
  for (let i = 0; i < ticks; i++) {
    owed += perTick;
    const n = Math.floor(owed);
    owed -= n;
    if (n) sb.addTweets(n);
    now += stepMs;
    await watcher.tick();
  }
  await app.stopAlerts();
  const scraped = app.metrics.render();
  const counter = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(scraped)?.[1] ?? 0);
  const followups = counter('kolradar_followup_requests_total');
  const authors = counter('kolradar_author_lookups_total');
  const total = sb.count();
  const byOp = new Map<string, number>();
  for (const r of sb.requests) byOp.set(r.operation, (byOp.get(r.operation) ?? 0) + 1);
  const ops = [...byOp].sort((a, b) => b[1] - a[1]);

  // Commands: what one of each costs, cold and cached.
  const commands = ['/token solana', '/kol', '/kols', '/tokens', '/tweets', '/mindmap', '/winrate'];
  const token = sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  const kol = sb.data.kols[0]!;
  const lines: Record<string, string> = {
    '/token solana': `/token solana ${token.address}`,
    '/kol': `/kol @${kol.username}`,
    '/mindmap': `/mindmap solana ${token.address}`,
  };
  const costs: string[] = [];
  for (const c of commands) {
    const line = lines[c] ?? c;
    sb.resetRequests();
    await app.dispatcher.text(line, { ...caller, userId: `u-${c}` });
    const cold = sb.count();
    sb.resetRequests();
    await app.dispatcher.text(line, { ...caller, userId: `u2-${c}` });
    costs.push(`${c.split(' ')[0]} ${cold}/${sb.count()}`);
  }
  await app.close();
  const fmt = (n: number) => n.toLocaleString('en-US');
  return [
    {
      area: 'cost',
      metric: `upstream requests in a simulated day, default install (${perMinute} feed reads a minute, sandbox feed ${TWEETS_PER_SECOND} tweets/s, one default subscription)`,
      value: `${fmt(total)} (${ops.map(([op, n]) => `${op} ${fmt(n)}`).join(', ')}; of these, follow-ups ${fmt(followups)} and author lookups ${fmt(authors)}); ${fmt(sent)} alerts sent`,
    },
    {
      area: 'cost',
      metric: 'upstream requests per command, cold / cached again at once',
      value: costs.join(', '),
    },
  ];
}
