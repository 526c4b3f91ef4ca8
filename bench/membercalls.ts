/**
 * Members' calls: 10,000 calls over 200 tokens (50 chats, each calling every
 * token once, 20 members a chat) recorded on SQLite through the store's
 * first-caller path, then one follow-up round with all their 5-minute points
 * due: upstream requests (target: one per token), and the store's cost per call
 * (time to record, with its first-caller take and index edits, and bytes).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFollowups } from '../src/alerts/calls/followups.ts';
import { createKolClient } from '../src/api/index.ts';
import { silentLogger } from '../src/log.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { localLease } from '../src/store/lease.ts';
import { openStore } from '../src/store/index.ts';
import { memberCall } from '../src/store/membercalls.ts';
import { summary, type Row } from './stats.ts';

export async function benchMemberCalls(tokensN = 200, chats = 50): Promise<Row[]> {
  let clock = Date.now();
  const now = () => clock;
  const sb = await startSandbox({ market: { clock: now } });
  const api = createKolClient({ baseUrl: sb.url, apiKey: sb.apiKey, cacheTtlMs: false });
  const tokens = sb.data.tokens.filter((t) => t.marketcap > 0).slice(0, tokensN);
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-bench-mcalls-'));
  const file = join(dir, 'calls.sqlite');
  const store = await openStore(`sqlite:${file}`);
  const sizeBefore = (await stat(file)).size;
  const ms: number[] = [];
  for (let c = 0; c < chats; c++)
    for (const [i, t] of tokens.entries()) {
      const member = `${c}-${i % 20}`;
      const call = memberCall({
        board: `telegram:-${1000 + c}`,
        platform: 'telegram',
        chatId: `-${1000 + c}`,
        messageId: String(i),
        member: { id: member, name: `@m${member}` },
        token: { chain: t.chain_id, address: t.address, symbol: t.symbol, name: t.name },
        marketCap: t.marketcap,
        liquidity: t.liquidity,
        at: clock,
        points: store.members.points,
        nonce: String(i),
      });
      const t0 = performance.now();
      await store.members.call(call);
      ms.push(performance.now() - t0);
    }
  const calls = chats * tokens.length;
  const walSize = await stat(`${file}-wal`).then(
    (s) => s.size,
    () => 0,
  );
  const bytesPerCall = ((await stat(file)).size + walSize - sizeBefore) / calls;
  clock += 6 * 60_000;
  const lease = localLease();
  await lease.acquire();
  const followups = createFollowups({
    calls: store.calls,
    members: store.members,
    outbox: store.outbox,
    api,
    lease,
    log: silentLogger(),
    perMinute: tokensN,
    now,
  });
  sb.resetRequests();
  const t0 = performance.now();
  const round = await followups.round();
  const roundS = (performance.now() - t0) / 1000;
  const requests = sb.count('2');
  const s = summary(ms);
  await store.close();
  await api.close();
  await sb.close();
  await rm(dir, { recursive: true, force: true });
  return [
    {
      area: 'member calls',
      metric: `${calls.toLocaleString('en-US')} members’ calls over ${tokens.length} tokens, 5 min points due: upstream requests of the round`,
      value: `${requests} (round ${roundS.toFixed(1)} s, ${round.deferred} deferred)`,
      target: `${tokens.length}`,
      ok: requests === tokens.length && round.deferred === 0,
    },
    {
      area: 'member calls',
      metric: 'store cost per call (SQLite: first-caller take, call, board, day and queue lists): time p50 / p99',
      value: `${s.p50.toFixed(2)} ms / ${s.p99.toFixed(2)} ms`,
      target: 'flat in the board’s size (the queue to follow-ups, drained each round, grows to all of them here)',
    },
    {
      area: 'member calls',
      metric: 'store bytes per member’s call (SQLite)',
      value: `${bytesPerCall.toFixed(0)} B`,
      target: 'bounded (retention 30 d)',
    },
  ];
}
