/** Automatic cards in the core: silence rules, cooldown, cap, concurrency, and the explicit form. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { KolClient } from '../../src/api/index.ts';
import {
  autoCardSettings,
  createAutoCards,
  parseCooldown,
  type AutoCards,
  type Where,
} from '../../src/core/autocard.ts';
import type { View } from '../../src/domain/view.ts';
import { compactCards } from '../../src/views/cards/tokenCompact.ts';
import { isSolanaAddress } from '../../src/domain/chains.ts';
import { silentLogger } from '../../src/log.ts';
import { harness } from '../commands/harness.ts';

const h = await harness();
after(() => h.close());
const sol = h.sandbox.data.tokens.filter((t) => t.chain_id === 'solana' && isSolanaAddress(t.address));
const where = (chatId: string) => ({ platform: 'telegram' as const, chatId });

/** The client, counting the analytics lookups made through it. */
function counted(): { api: KolClient; calls: () => number } {
  let n = 0;
  const api = new Proxy(h.api, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (key === 'getTokenAnalytics' && typeof v === 'function')
        return (...args: unknown[]) => {
          n++;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      return v;
    },
  });
  return { api, calls: () => n };
}

/** Where a message-command answer goes in these tests. */
const HERE = { platform: 'telegram' as const, chatId: '-100' };

function cards(o: { perMinute?: number; now?: () => number } = {}) {
  const c = counted();
  const outcomes: string[] = [];
  const auto = createAutoCards({
    cards: compactCards,
    api: c.api,
    store: h.store,
    log: silentLogger(),
    bind: (v, chat) => h.dispatcher.bind(v, chat),
    onOutcome: (_, oc) => outcomes.push(oc),
    ...o,
  });
  return { auto, calls: c.calls, outcomes };
}

test('a message without a candidate costs no lookup and no store read', async () => {
  const { auto, calls, outcomes } = cards();
  h.store.setFailing(true);
  try {
    assert.equal(await auto.forText('gm frens, wen moon? 0xdeadbeef', where('c1')), undefined);
  } finally {
    h.store.setFailing(false);
  }
  assert.equal(calls(), 0);
  assert.deepEqual(outcomes, []);
});

test('two pastes of one token at the same moment give one card; the repeat is in cooldown', async () => {
  const { auto } = cards();
  const [a, b] = await Promise.all([
    auto.forText(sol[0]!.address, where('c2')),
    auto.forText(`again ${sol[0]!.address}`, where('c2')),
  ]);
  assert.equal([a, b].filter(Boolean).length, 1);
  assert.equal(await auto.forText(sol[0]!.address, where('c2')), undefined);
  assert.ok(await auto.forText(sol[0]!.address, where('c3')), 'another chat has its own cooldown');
});

test('the per-chat cap counts per minute on the injected clock', async () => {
  let t = 1_000_000;
  const { auto, outcomes } = cards({ perMinute: 1, now: () => t });
  assert.ok(await auto.forText(sol[1]!.address, where('c4')));
  assert.equal(await auto.forText(sol[2]!.address, where('c4')), undefined);
  assert.equal(outcomes.at(-1), 'limited');
  t += 60_001;
  assert.ok(await auto.forText(sol[2]!.address, where('c4')));
});

test('off in a chat: silence and no lookup; unknown tokens and faults: silence, counted', async () => {
  const { auto, calls, outcomes } = cards();
  await autoCardSettings(h.store).put('telegram', 'c5', { enabled: false, cooldownMs: 60_000 });
  assert.equal(await auto.forText(sol[3]!.address, where('c5')), undefined);
  assert.equal(calls(), 0);
  assert.equal(await auto.forText('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', where('c6')), undefined);
  assert.equal(outcomes.at(-1), 'not_found');
  h.sandbox.setFaults({ burst5xx: 1_000, operations: ['tokenAnalytics'] });
  try {
    const { auto: faulty, outcomes: seen } = cards();
    assert.equal(await faulty.forText(sol[4]!.address, where('c7')), undefined);
    assert.equal(seen.at(-1), 'unavailable');
  } finally {
    h.sandbox.clearFaults();
  }
});

/** The explicit form's answer, refused or looked up. */
async function explicitly(auto: AutoCards, text: string, w: Where = HERE): Promise<View> {
  const plan = await auto.explicit(text, w);
  return 'refused' in plan ? plan.refused : plan.run(new AbortController().signal);
}

test('explicit: always an answer', async () => {
  const { auto } = cards();
  assert.equal((await explicitly(auto, 'nothing here')).kind, 'error');
  assert.match(
    ((await explicitly(auto, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')) as { message: string }).message,
    /does not know/,
  );
  const v = await explicitly(auto, `${sol[5]!.address} and ${sol[5]!.address}`);
  assert.equal(v.kind, 'text');
  assert.equal(v.actions?.length, 1);
  assert.ok(v.actions?.[0]?.id, 'the button is bound');
});

test('cooldowns parse like other durations and stop at 24h', () => {
  assert.equal(parseCooldown('10m'), 600_000);
  assert.equal(parseCooldown('2h'), 7_200_000);
  assert.equal(parseCooldown('25h'), undefined);
  assert.equal(parseCooldown('soon'), undefined);
});
