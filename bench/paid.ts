/**
 * Telegram paid broadcasts: one alert to 10,000 chats through the real delivery
 * path, grammY and the pacer, against the Bot API fake with paid broadcasts
 * (1,000 messages/s, 0.1 Stars each). Two runs: a balance that pays for every
 * send the free 30/s cannot take at once, on the real clock (rate against the
 * 1,000/s limit); and a balance that runs out half-way, on a clock 4x faster so
 * the free remainder takes seconds: nothing may be lost, nothing sent twice.
 */
import { PAID_PER_SECOND, PaidBroadcasts } from '../src/adapters/telegram/paid.ts';
import { openStore } from '../src/store/index.ts';
import { startTelegramFake } from '../test/fakes/telegram/index.ts';
import { drainTelegram } from './fanout.ts';
import type { Row } from './stats.ts';

interface PaidRun {
  seconds: number;
  delivered: number;
  /** Chats without the alert, and chats that got it more than once, by what the fake posted. */
  lost: number;
  twice: number;
  /** Requests the client gave up on (no answer within its timeout): an overloaded machine. */
  unanswered: number;
  /** Delivery results other than sent, by kind and reason (what an overloaded run ran into). */
  other: Record<string, number>;
  paid: number;
  stars: number;
  refusals: number;
  limited: number;
  violations: number;
}

async function paidFanout(n: number, stars: number, timeScale: number): Promise<PaidRun> {
  const fake = await startTelegramFake({ knownChatsOnly: false, timeScale, paidBroadcast: { stars } });
  const store = await openStore('memory:');
  let spent = 0;
  const other: Record<string, number> = {};
  const policy = new PaidBroadcasts({
    maxStarsPerDay: 100_000,
    events: {
      sent: (s) => {
        spent += s;
      },
    },
  });
  const { chats, seconds, delivery } = await drainTelegram(
    fake,
    store,
    n,
    3_000_000,
    { timeScale, paid: policy },
    (_e, r) => {
      if (r.kind === 'sent') return;
      const k = `${r.kind}${'reason' in r ? `: ${r.reason.slice(0, 60)}` : ''}`;
      other[k] = (other[k] ?? 0) + 1;
    },
  );
  const ok = fake.requests.filter((q) => q.method === 'sendMessage' && q.status === 200);
  const posts = chats.map((id) => fake.messages(Number(id)).length);
  const run: PaidRun = {
    seconds,
    delivered: ok.length,
    lost: posts.filter((k) => k === 0).length,
    twice: posts.filter((k) => k > 1).length,
    other,
    unanswered: fake.requests.filter((q) => q.method === 'sendMessage' && q.status === 0).length,
    paid: fake.paidSends,
    stars: spent,
    refusals: policy.refusals,
    limited: fake.requests.filter((q) => q.status === 429).length,
    violations: fake.violations.length,
  };
  await delivery.stop();
  await store.close();
  await fake.close();
  return run;
}

export async function benchTelegramPaid(n = 10_000): Promise<Row[]> {
  const full = await paidFanout(n, n, 1);
  const rate = full.delivered / full.seconds;
  const half = await paidFanout(n, n / 20, 0.25);
  for (const [what, run] of [
    ['paid', full],
    ['half-way', half],
  ] as const)
    if (Object.keys(run.other).length)
      process.stderr.write(`bench paid (${what}): not sent: ${JSON.stringify(run.other)}\n`);
  const fmt = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 1 });
  return [
    {
      area: 'fan-out',
      metric: `Telegram, paid broadcasts on: 1 alert to ${fmt(n)} chats (limit ${PAID_PER_SECOND}/s)`,
      value: `${rate.toFixed(0)}/s = ${(rate / PAID_PER_SECOND).toFixed(3)} of the limit, ${full.seconds.toFixed(1)} s; ${fmt(full.paid)} paid, ${fmt(full.stars)} Stars (fake charged ${fmt(full.paid / 10)})`,
      target: '',
    },
    {
      area: 'fan-out',
      metric: 'Telegram, paid: in a 429 window / 429s / lost / twice / unanswered',
      value: `${full.violations} / ${full.limited} / ${full.lost} / ${full.twice} / ${full.unanswered}`,
      target: '0 / 0 / 0 / 0 / 0',
      ok: full.violations === 0 && full.limited === 0 && full.lost === 0 && full.twice === 0 && full.unanswered === 0,
    },
    {
      area: 'fan-out',
      metric: `Telegram, paid, the balance runs out half-way (${fmt(n / 20)} Stars; clock x4): paid / free / refusals / lost / twice`,
      value: `${fmt(half.paid)} / ${fmt(half.delivered - half.paid)} / ${half.refusals} / ${half.lost} / ${half.twice}, ${half.seconds.toFixed(1)} s, ${half.violations} in a 429 window`,
      target: '0 lost, 0 twice, 0 in a 429 window',
      ok: half.lost === 0 && half.twice === 0 && half.violations === 0,
    },
  ];
}
