// Paid broadcasts as the fake models them (allow_paid_broadcast): a higher bot-wide
// limit, 0.1 Stars charged per message posted, and a refusal without the balance or
// the eligibility, each on its own. Limits are shrunk (2 free, 5 in all a second) so
// a handful of requests shows each rule; the clock is moved, never waited for.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { PAID_REFUSALS, startTelegramFake, type TelegramFake } from './index.ts';
import { callRaw as call } from './raw.ts';

async function open(t: TestContext, paidBroadcast: { stars?: number; eligible?: boolean }): Promise<TelegramFake> {
  const fake = await startTelegramFake({
    knownChatsOnly: false,
    limits: { globalPerSecond: 2, paidPerSecond: 5 },
    paidBroadcast,
  });
  t.after(() => fake.close());
  return fake;
}

const send = (fake: TelegramFake, chat: number, paid: boolean, text = 'alert') =>
  call(fake, 'sendMessage', { chat_id: chat, text, ...(paid ? { allow_paid_broadcast: true } : {}) });

test('paid sends go past the free bot-wide limit up to the paid one, then get 429', async (t) => {
  const fake = await open(t, { stars: 10 });
  const free = [await send(fake, 1, false), await send(fake, 2, false), await send(fake, 3, false)];
  assert.deepEqual(
    free.map((r) => r.ok),
    [true, true, false],
    'the third free send in a second is over the free limit',
  );
  fake.resetRateLimits();
  const paid = [];
  for (let chat = 11; chat <= 16; chat++) paid.push(await send(fake, chat, true));
  assert.deepEqual(
    paid.map((r) => r.ok),
    [true, true, true, true, true, false],
    'five paid sends in a second, the sixth refused',
  );
  assert.match(paid[5]!.description!, /Too Many Requests: retry after 1/);
  // The chat's own limit holds for a paid send: one a second to a private chat.
  fake.advanceClock(1_000);
  assert.ok((await send(fake, 11, true)).ok);
  assert.equal((await send(fake, 11, true)).ok, false);
});

test('each paid message posted costs 0.1 Stars; free ones and refused messages cost nothing', async (t) => {
  const fake = await open(t, { stars: 1 });
  assert.ok((await send(fake, 1, true)).ok);
  assert.ok((await send(fake, 2, true)).ok);
  assert.ok((await send(fake, 3, false)).ok);
  assert.equal((await send(fake, 4, true, '')).ok, false, 'an empty text is refused');
  assert.equal(fake.paidSends, 2);
  assert.equal(fake.stars, 0.8);
  assert.equal(fake.requests.filter((r) => r.paid).length, 3, 'the request log marks paid requests');
});

test('without the Stars or the eligibility a paid send is refused, nothing posted; the same send free goes through', async (t) => {
  const fake = await open(t, { stars: 0.1 });
  assert.ok((await send(fake, 1, true)).ok);
  const broke = await send(fake, 2, true);
  assert.equal(broke.ok, false);
  assert.equal(broke.description, `Bad Request: ${PAID_REFUSALS.balance}`);
  assert.equal(fake.messages(2).length, 0, 'nothing posted');
  assert.ok((await send(fake, 2, false)).ok, 'free, it goes');
  assert.equal(fake.stars, 0);
  fake.setStars(100, false);
  const ineligible = await send(fake, 3, true);
  assert.equal(ineligible.description, `Bad Request: ${PAID_REFUSALS.eligibility}`);
  assert.equal(fake.stars, 100, 'a refused send costs nothing');
  assert.equal(fake.messages(3).length, 0);
});
