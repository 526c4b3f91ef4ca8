/**
 * Members' calls across a SIGKILL of the real bot process (SQLite): calls just
 * recorded, still waiting for the follow-up queue, when the process dies a few
 * milliseconds after the round's market answer. After the restart every call
 * has its 5-minute sample once (nothing lost, nothing doubled), the board still
 * holds each call once, and no token is asked about with no point due.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox } from '../../src/sandbox/server.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { memberCall } from '../../src/store/membercalls.ts';
import { startDiscordFake } from '../fakes/discord/index.ts';
import { startTelegramFake } from '../fakes/telegram/index.ts';
import { CHILD_PATIENCE_MS, childEnv, exited, startReadyChild } from '../helpers/child-bot.ts';
import { moreTicks } from '../helpers/pipeline.ts';
import { nothingMoreAfter, until } from '../helpers/wait.ts';

const CHILD = fileURLToPath(new URL('./calls-child.ts', import.meta.url));
const BOARD = 'telegram:-7500001';

test('SQLite: SIGKILL right after a round’s market answer, with members’ calls still queued: each gets its 5 min sample once', {
  timeout: 300_000,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-mcalls-kill-'));
  let clock = Date.now();
  const sb = await startSandbox({ market: { clock: () => clock } });
  const discord = await startDiscordFake({ guilds: [{ id: '933000000000000002', channels: [] }] });
  const telegram = await startTelegramFake({
    token: '7000000016:AAFakeTokenForTheMCallsKill_0123456',
    knownChatsOnly: false,
  });
  const storeUrl = `sqlite:${join(dir, 'state.sqlite')}`;
  let child: ChildProcess | undefined;
  t.after(async () => {
    child?.kill('SIGKILL');
    await discord.close();
    await telegram.close();
    await sb.close();
    await rm(dir, { recursive: true, force: true });
  });
  // Calls as a paste records them: credited, on the board, waiting for the follow-up queue.
  const toks = sb.data.tokens.filter((x) => x.marketcap > 0).slice(0, 6);
  const seed = await openStore(storeUrl);
  await seed.members.setOn(BOARD, true);
  for (const [i, tok] of toks.entries()) {
    const made = await seed.members.call(
      memberCall({
        board: BOARD,
        platform: 'telegram',
        chatId: '-7500001',
        messageId: String(i),
        member: { id: String(100 + (i % 2)), name: `@m${i % 2}` },
        token: { chain: tok.chain_id, address: tok.address, symbol: tok.symbol, name: tok.name },
        marketCap: tok.marketcap,
        liquidity: tok.liquidity,
        at: clock,
        points: seed.members.points,
        nonce: String(i),
      }),
    );
    assert.equal(made.kind, 'recorded');
  }
  assert.equal((await seed.members.intake()).length, 6);
  await seed.close();
  const env = childEnv(sb, storeUrl, discord, telegram);
  const start = (at: number) => startReadyChild(CHILD, [String(at), JSON.stringify(env)]);
  const board = async (s: Store) => ({ calls: await s.members.list(BOARD, 0), queued: await s.members.intake() });

  // Life 1, six minutes on: killed a few milliseconds after the round's market answer.
  clock += 6 * 60_000;
  const before = sb.count('2');
  child = await start(clock);
  await until(() => sb.count('2') > before, 'the round asked the market', CHILD_PATIENCE_MS);
  await sleep(3); // a few ms after the answer: the kill's moment, the scenario, not a wait
  child.kill('SIGKILL');
  await exited(child);

  // Life 2: every call sampled at its 5 min point, once.
  clock += 60_000;
  child = await start(clock);
  // One reader for the rest of the test: the condition is checked every few milliseconds.
  const reader = await openStore(storeUrl);
  t.after(() => reader.close());
  await until(
    async () => (await board(reader)).calls.every((c) => c.samples.length >= 1),
    'every call sampled',
    CHILD_PATIENCE_MS,
  );
  // Three more ticks, each with its follow-up round, with no point due: no market request among them.
  await nothingMoreAfter(
    () => sb.count('2'),
    () => moreTicks(sb, 3, CHILD_PATIENCE_MS),
    'no token asked about with no point due',
  );
  const { calls, queued } = await board(reader);
  assert.equal(calls.length, 6, 'each call once on the board');
  assert.deepEqual(queued, [], 'all moved to the follow-up queue');
  for (const c of calls) {
    assert.deepEqual(
      c.samples.map((s) => s.point),
      [5],
      `${c.token.symbol}: one sample, the 5 min point`,
    );
    assert.equal(c.next, 1);
    assert.equal(c.peak, Math.max(c.marketCap!, c.samples[0]!.marketCap));
  }
  child.kill('SIGTERM');
  await exited(child);
});
