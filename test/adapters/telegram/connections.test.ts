// Sends over kept-alive connections a server ends: none lost, none posted twice. A request is never written where
// the server may have closed (the bot's idle timeout stays below the server's; a close already received takes the
// connection out first), and a request that never connected is resent.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createTelegramAdapter, type TelegramAdapter } from '../../../src/adapters/telegram/index.ts';
import { silentLogger } from '../../../src/log.ts';
import { openStore } from '../../../src/store/index.ts';
import type { CardView } from '../../../src/domain/view.ts';
import { until } from '../../helpers/wait.ts';
import { startTelegramFake, type TelegramFake, type TelegramFakeOptions } from '../../fakes/telegram/index.ts';

const card: CardView = { kind: 'card', title: 'Alert', description: 'body', links: [] };

async function setUp(
  t: TestContext,
  fakeOptions: TelegramFakeOptions,
  apiRoot?: string,
): Promise<{ fake: TelegramFake; adapter: TelegramAdapter }> {
  const fake = await startTelegramFake({ knownChatsOnly: false, limits: false, ...fakeOptions });
  const store = await openStore('memory:');
  const adapter = createTelegramAdapter({
    token: fake.token,
    apiRoot: apiRoot ?? fake.apiRoot,
    dispatcher: undefined as never,
    store,
    log: silentLogger(),
    // Not about Telegram's limits: the bot-wide window must not stretch the fan-out over minutes.
    pacing: { globalPerSecond: 1_000_000 },
  });
  t.after(async () => {
    await store.close();
    await fake.close();
  });
  return { fake, adapter };
}

test('a server that ends connections idle for 2 s (and says so): 10,000 sends in four waves, none lost, none twice', {
  timeout: 300_000,
}, async (t) => {
  const IDLE_MS = 2_000;
  const { fake, adapter } = await setUp(t, { keepAlive: { idleMs: IDLE_MS, hint: true } });
  const notSent: string[] = [];
  const chats = Array.from({ length: 10_000 }, (_, i) => String(2_000_000 + i));
  for (let wave = 0; wave < 4; wave++) {
    if (wave > 0)
      // The bot's connections now stand idle until the server would end them; the next wave comes after.
      await until(
        () => fake.connectionIdleTimes().every((ms) => ms !== undefined && ms >= IDLE_MS),
        'every open connection to be idle for as long as the server keeps one',
      );
    const queue = chats.slice(wave * 2_500, (wave + 1) * 2_500);
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const r = await adapter.sender.send(id, card, id);
        if (r.kind !== 'sent') notSent.push(`${r.kind}: ${'reason' in r ? r.reason : ''}`);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
  }
  const posts = chats.map((id) => fake.messages(Number(id)).length);
  assert.deepEqual(notSent, []);
  assert.equal(posts.filter((n) => n === 0).length, 0, 'lost');
  assert.equal(posts.filter((n) => n > 1).length, 0, 'posted twice');
  assert.equal(fake.closedOnReuse, 0, 'no request was written on a connection the server had ended');
});

test('a connection the server closed just before the bot writes on it is not written on: every send arrives once', async (t) => {
  const { fake, adapter } = await setUp(t, {});
  const results: string[] = [];
  for (let round = 0; round < 100; round++) {
    const chat = (k: number) => String(3_000_000 + round * 4 + k);
    // Two kept-alive connections, then the server closes them, and in that same turn the bot sends on.
    await Promise.all([adapter.sender.send(chat(0), card, 'n'), adapter.sender.send(chat(1), card, 'n')]);
    fake.closeIdleConnections();
    const again = await Promise.all([adapter.sender.send(chat(2), card, 'n'), adapter.sender.send(chat(3), card, 'n')]);
    results.push(...again.map((r) => r.kind));
  }
  assert.deepEqual(
    results.filter((k) => k !== 'sent'),
    [],
  );
  for (let id = 3_000_000; id < 3_000_400; id++) assert.equal(fake.messages(id).length, 1, `chat ${id}`);
});

test('a send that never connected (no such host) is resent later, not given up as maybe posted', async (t) => {
  const { adapter } = await setUp(t, {}, 'http://kolradar-test.invalid');
  const r = await adapter.sender.send('42', card, 'n');
  assert.equal(r.kind, 'retry');
  assert.match(r.kind === 'retry' ? r.reason : '', /^not connected \((ENOTFOUND|EAI_AGAIN)\)$/);
});
