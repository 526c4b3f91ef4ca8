// Paid broadcasts end to end: the alert sender (grammY, the pacer) against the Bot API fake
// that models the paid limit, the Stars charge and the refusal. The fake's clock runs 20x
// faster and the pacer is told so; every assertion counts what was sent, none times it.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createTelegramAdapter } from '../../../src/adapters/telegram/index.ts';
import { isPaidRefusal, PaidBroadcasts, type PaidEvents } from '../../../src/adapters/telegram/paid.ts';
import type { CardView } from '../../../src/domain/view.ts';
import { paidBroadcasts } from '../../../src/bot.ts';
import { createLogger, silentLogger } from '../../../src/log.ts';
import { createMetrics } from '../../../src/ops/metrics.ts';
import { openStore } from '../../../src/store/index.ts';
import { paidLedger } from '../../../src/store/paid.ts';
import { startTelegramFake, type TelegramFake } from '../../fakes/telegram/index.ts';
import { createDelivery } from '../../../src/alerts/delivery.ts';
import { mergedEntry } from '../../../src/alerts/merge.ts';
import type { OutboxEntry } from '../../../src/store/outbox.ts';
import { openSubscription } from '../../helpers/subscriptions.ts';
import { until } from '../../helpers/wait.ts';
import { alertContent } from '../../alerts/delivery/kit.ts';

const card: CardView = { kind: 'card', title: 'Alert', description: 'body', links: [] };
const TIME_SCALE = 0.05;

interface Seen {
  sent: number;
  stars: number;
  refused: string[];
  capped: number;
}

async function fanOut(
  t: TestContext,
  o: {
    chats: number;
    stars: number;
    maxStarsPerDay: number;
    now?: () => number;
    /** The policy as the bot wires it (bot.ts), counting into these metrics. */
    metrics?: ReturnType<typeof createMetrics>;
  },
): Promise<{ fake: TelegramFake; policy: PaidBroadcasts; seen: Seen; results: string[] }> {
  const fake = await startTelegramFake({
    knownChatsOnly: false,
    timeScale: TIME_SCALE,
    paidBroadcast: { stars: o.stars },
  });
  const store = await openStore('memory:');
  const seen: Seen = { sent: 0, stars: 0, refused: [], capped: 0 };
  const events: PaidEvents = {
    sent: (stars) => {
      seen.sent++;
      seen.stars += stars;
    },
    refused: (reason) => void seen.refused.push(reason),
    capped: () => void seen.capped++,
  };
  const policy = o.metrics
    ? await paidBroadcasts({ maxStarsPerDay: o.maxStarsPerDay }, o.metrics, silentLogger())
    : new PaidBroadcasts({ maxStarsPerDay: o.maxStarsPerDay, events, ...(o.now ? { now: o.now } : {}) });
  const adapter = createTelegramAdapter({
    token: fake.token,
    apiRoot: fake.apiRoot,
    dispatcher: undefined as never,
    store,
    log: silentLogger(),
    pacing: { timeScale: TIME_SCALE, paid: policy },
  });
  t.after(async () => {
    await store.close();
    await fake.close();
  });
  const ids = Array.from({ length: o.chats }, (_, i) => String(2_000_000 + i));
  const results: string[] = [];
  let next = 0;
  // As delivery does: many destinations in flight at once.
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      // As delivery sends a new alert: it may pay.
      results.push((await adapter.sender.send(id, card, 'n', undefined, undefined, { mayPay: true })).kind);
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  return { fake, policy, seen, results };
}

const posted = (fake: TelegramFake) => fake.requests.filter((q) => q.method === 'sendMessage' && q.status === 200);

test('a fan-out pays only for what the free window cannot take at once; Stars and messages are counted', async (t) => {
  const { fake, seen, results } = await fanOut(t, { chats: 150, stars: 100, maxStarsPerDay: 100 });
  assert.deepEqual(new Set(results), new Set(['sent']));
  const ok = posted(fake);
  assert.equal(ok.length, 150, 'every chat got its alert once');
  const paid = ok.filter((q) => q.paid).length;
  assert.ok(paid > 0, 'sends beyond the free window went paid');
  assert.ok(ok.length - paid >= 30, 'the free window was used first');
  assert.equal(fake.paidSends, paid);
  assert.equal(seen.sent, paid, 'each paid message counted once');
  assert.equal(Math.round(seen.stars * 10), paid, '0.1 Stars each');
  assert.equal(fake.stars, 100 - paid / 10);
  assert.equal(fake.requests.filter((q) => q.status === 429).length, 0);
  assert.deepEqual(fake.violations, []);
});

test('when the balance runs out half-way, the rest goes free: nothing lost, nothing twice, one refusal said', async (t) => {
  const { fake, policy, seen, results } = await fanOut(t, { chats: 120, stars: 3, maxStarsPerDay: 100 });
  assert.deepEqual(new Set(results), new Set(['sent']));
  const ok = posted(fake);
  assert.equal(ok.length, 120);
  assert.equal(new Set(ok.map((q) => q.chat_id)).size, 120, 'each chat once');
  assert.equal(fake.paidSends, 30, 'the balance paid for 30');
  assert.equal(fake.stars, 0);
  assert.ok(policy.refusals >= 1, 'Telegram refused paying');
  assert.equal(seen.refused.length, 1, 'the refusal is reported once, not per send');
  assert.match(seen.refused[0]!, /BALANCE_TOO_LOW/);
  assert.equal(ok.filter((q) => q.paid).length, 30, 'no paid send after the refusal');
  assert.deepEqual(fake.violations, []);
});

test('/metrics counts every paid send Telegram refused, not one per pause', async (t) => {
  const metrics = createMetrics();
  // A balance of nothing: every paid send the fan-out makes is refused, many of them in flight together.
  const { fake } = await fanOut(t, { chats: 150, stars: 0, maxStarsPerDay: 100, metrics });
  assert.equal(posted(fake).length, 150, 'every chat got its alert at the free rate');
  const refused = fake.requests.filter((q) => q.method === 'sendMessage' && q.paid && q.status !== 200).length;
  assert.ok(refused >= 1, 'Telegram refused paying');
  const counted = Number(/^kolradar_telegram_paid_refusals_total (\d+)$/m.exec(metrics.render())?.[1]);
  assert.equal(counted, refused, 'each refused send counted');
});

test('the day’s cap stops paying, free sending goes on, and the next UTC day pays again', async (t) => {
  let now = Date.parse('2026-11-26T23:59:00Z');
  const { fake, seen } = await fanOut(t, {
    chats: 90,
    stars: 100,
    maxStarsPerDay: 0.5,
    now: () => now,
  });
  assert.equal(posted(fake).length, 90);
  assert.equal(fake.paidSends, 5, '0.5 Stars buy five paid messages');
  assert.equal(seen.capped, 1);
  const policy = new PaidBroadcasts({ maxStarsPerDay: 0.5, now: () => now });
  for (let i = 0; i < 5; i++) assert.ok(policy.reserve());
  assert.equal(policy.reserve(), false);
  now += 60_000;
  assert.ok(policy.reserve(), 'a new UTC day, a new cap');
});

test('only a refusal of the payment falls back; a refusal of the chat or the message does not', () => {
  const no = (error_code: number, description: string) => ({ ok: false, error_code, description });
  assert.ok(isPaidRefusal(no(400, 'Bad Request: BALANCE_TOO_LOW')));
  assert.ok(isPaidRefusal(no(400, 'Bad Request: paid broadcasts are not allowed for this bot')));
  assert.ok(isPaidRefusal(no(402, 'Payment Required')));
  assert.equal(isPaidRefusal(no(403, 'Forbidden: bot was blocked by the user')), false);
  assert.equal(isPaidRefusal(no(400, 'Bad Request: chat not found')), false);
  assert.equal(isPaidRefusal(no(400, 'Bad Request: message text is empty')), false);
  assert.equal(isPaidRefusal(no(429, 'Too Many Requests: retry after 1')), false);
});

test('paid sends, their Stars and a refusal reach /metrics and the log (the bot’s wiring)', async () => {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', secrets: [], destination: { write: (l: string) => lines.push(l) } });
  const metrics = createMetrics();
  const policy = await paidBroadcasts({ maxStarsPerDay: 1 }, metrics, log);
  for (let i = 0; i < 3; i++) {
    assert.ok(policy.reserve());
    policy.charged();
  }
  // Two paid sends in flight together, both refused: two refusals counted, one pause said.
  assert.ok(policy.reserve());
  assert.ok(policy.reserve());
  policy.refused('Bad Request: BALANCE_TOO_LOW');
  policy.refused('Bad Request: BALANCE_TOO_LOW');
  assert.equal(policy.reserve(), false, 'paying pauses after a refusal');
  const text = metrics.render();
  assert.match(text, /^kolradar_telegram_paid_messages_total 3$/m);
  assert.match(text, /^kolradar_telegram_paid_stars_total 0\.3/m);
  assert.match(text, /^kolradar_telegram_paid_refusals_total 2$/m);
  assert.ok(lines.some((l) => /paid broadcasts on/.test(l) && /"maxStarsPerDay":1/.test(l)));
  assert.equal(lines.filter((l) => /paid broadcast refused/.test(l)).length, 1);
});

test('the day’s spending is kept in the store: a restart goes on from it, and the next UTC day starts afresh', async (t) => {
  const store = await openStore('memory:');
  t.after(() => store.close());
  const ledger = paidLedger(store.watch);
  let now = Date.parse('2026-11-26T10:00:00Z');
  const spend = (p: PaidBroadcasts, n: number) => {
    let ok = 0;
    for (let i = 0; i < n; i++)
      if (p.reserve()) {
        p.charged();
        ok++;
      }
    return ok;
  };
  const first = new PaidBroadcasts({ maxStarsPerDay: 0.5, now: () => now, ledger });
  await first.sync();
  assert.equal(spend(first, 3), 3);
  await first.close(); // shutdown writes what is left
  assert.equal(await store.watch.get('paid:2026-11-26'), 3);
  const restarted = new PaidBroadcasts({ maxStarsPerDay: 0.5, now: () => now, ledger });
  await restarted.sync();
  assert.equal(spend(restarted, 5), 2, 'only the rest of the day’s cap');
  await restarted.close();
  assert.equal(await store.watch.get('paid:2026-11-26'), 5);
  now += 86_400_000;
  const tomorrow = new PaidBroadcasts({ maxStarsPerDay: 0.5, now: () => now, ledger });
  await tomorrow.sync();
  assert.equal(spend(tomorrow, 5), 5);
});

test('paid broadcasts go to new alerts only: merged bursts and notices to as many chats go free', async (t) => {
  const fake = await startTelegramFake({ knownChatsOnly: false, timeScale: TIME_SCALE, paidBroadcast: { stars: 100 } });
  const store = await openStore('memory:');
  const policy = new PaidBroadcasts({ maxStarsPerDay: 100 });
  const adapter = createTelegramAdapter({
    token: fake.token,
    apiRoot: fake.apiRoot,
    dispatcher: undefined as never,
    store,
    log: silentLogger(),
    pacing: { timeScale: TIME_SCALE, paid: policy },
  });
  const delivery = createDelivery({
    outbox: store.outbox,
    subscriptions: store.subscriptions,
    senders: [adapter.sender],
    log: silentLogger(),
  });
  t.after(async () => {
    await delivery.stop();
    await store.close();
    await fake.close();
  });
  const chats = Array.from({ length: 120 }, (_, i) => String(3_000_000 + i));
  for (const id of chats) await store.subscriptions.put(openSubscription('telegram', id));
  const alert = (id: string, i: number): OutboxEntry => ({
    id: `tw${i}:telegram:${id}`,
    subId: `telegram:${id}`,
    platform: 'telegram',
    chatId: id,
    isGroup: false,
    content: alertContent(i),
    createdAt: Date.now(),
    state: 'pending',
    attempts: 0,
    notBefore: 0,
  });
  // A merged burst and a notice for every chat at once: more than the free 30 a second.
  const free = chats.flatMap((id) => [
    mergedEntry('burst', [alert(id, 1), alert(id, 2)], Date.now()),
    { ...alert(id, 3), id: `notice:${id}`, content: { kind: 'notice' as const, text: 'maintenance tonight' } },
  ]);
  await store.outbox.enqueue('free', free);
  await delivery.drain();
  const ok = () => posted(fake).length;
  await until(() => ok() === 240, 'every merged burst and notice delivered');
  assert.equal(fake.paidSends, 0, 'none of them paid');
  // The same chats' new alerts: what the free window cannot take at once goes paid.
  await store.outbox.enqueue(
    'alerts',
    chats.map((id) => alert(id, 4)),
  );
  await delivery.drain();
  await until(() => ok() === 360, 'every new alert delivered');
  assert.ok(fake.paidSends > 0, 'new alerts bought speed');
  assert.deepEqual(fake.violations, []);
});
