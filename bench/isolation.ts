/**
 * One destination whose sends hang never holds up the others: through the real
 * delivery path and discord.js against the fake, one channel's requests are held
 * for ten minutes (the fake answers nothing there) while an alert is on its way to
 * it; then a new alert goes to every channel. "Sent after": from the new alert
 * queued to the last other channel having it (goal under 2 s; before the fix, the
 * run waited on the held send: discord.js's 15 s timeout, retried three times).
 */
import { REST } from 'discord.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDelivery } from '../src/alerts/delivery.ts';
import { createDiscordSender } from '../src/adapters/discord/sender.ts';
import { rejectLongWaits } from '../src/adapters/discord/deadline.ts';
import { silentLogger } from '../src/log.ts';
import { openStore } from '../src/store/index.ts';
import { startDiscordFake } from '../test/fakes/discord/index.ts';
import { entries, subscribeAll } from './fanout.ts';
import type { Row } from './stats.ts';

/** Longest the row waits for the other channels before it reports a miss. */
const GIVE_UP_MS = 120_000;
const GOAL_MS = 2000;

export async function benchIsolation(n = 20): Promise<Row[]> {
  const channels = Array.from({ length: n }, (_, i) => `8${String(i).padStart(17, '0')}`);
  const fake = await startDiscordFake({
    guilds: [{ id: '900000000000000001', channels: channels.map((id) => ({ id })) }],
    channelBucket: { limit: 50, windowMs: 1000 },
  });
  const rest = new REST({ api: fake.apiBase, rejectOnRateLimit: rejectLongWaits() }).setToken(fake.token);
  const log = silentLogger();
  const store = await openStore('memory:');
  await subscribeAll(store, 'discord', channels);
  const delivery = createDelivery({
    outbox: store.outbox,
    subscriptions: store.subscriptions,
    senders: [createDiscordSender(rest, log)],
    log,
  });
  const [held, ...others] = channels as [string, ...string[]];
  const release = fake.holdChannel(held, 600_000);
  const kick = () => void delivery.drain().catch(() => {});
  const everyOtherHas = (count: number) => others.every((c) => fake.channelMessages(c).length >= count);
  const waitFor = async (done: () => boolean) => {
    const end = performance.now() + GIVE_UP_MS;
    while (!done() && performance.now() < end) await sleep(2);
    return done();
  };
  try {
    await store.outbox.enqueue('first', entries('discord', channels));
    kick();
    await waitFor(() => fake.heldRequests(held) === 1 && everyOtherHas(1));
    const second = entries('discord', channels).map((e) => ({ ...e, id: `${e.id}:2` }));
    const t0 = performance.now();
    await store.outbox.enqueue('second', second);
    kick();
    const arrived = await waitFor(() => everyOtherHas(2));
    const after = performance.now() - t0;
    return [
      {
        area: 'delivery',
        metric: `alerts to ${others.length} other channels while one channel's sends hang, sent after`,
        value: arrived ? `${(after / 1000).toFixed(2)} s` : `not within ${GIVE_UP_MS / 1000} s`,
        target: `< ${GOAL_MS / 1000} s`,
        ok: arrived && after < GOAL_MS,
      },
    ];
  } finally {
    release();
    await delivery.stop();
    await store.close();
    await fake.close();
  }
}
