// Two instances on one Redis (two stores, two dispatchers: each has its own turns, as two processes do): admins
// pressing settings at the same moment on both keep every change. Each write of a subscription is a
// compare-and-set on its version; the one that read before the other's write runs again from a fresh read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Caller } from '../../src/core/command.ts';
import type { View } from '../../src/domain/view.ts';
import { REDIS_SKIP, redisAvailable, startRedis } from '../helpers/redis.ts';
import { harness, type Harness } from './harness.ts';

const skip = redisAvailable() ? false : REDIS_SKIP;

const admin = (userId: string): Caller => ({
  platform: 'console',
  userId,
  chatId: 'shared',
  chatType: 'group',
  canManage: async () => true,
});

function press(h: Harness, view: View, label: string, who: Caller, answer?: string): Promise<View> {
  const a = (view.actions ?? []).find((x) => x.label.includes(label));
  assert.ok(a?.id, `no '${label}' button`);
  return h.dispatcher.action(a.id, who, answer === undefined ? {} : { answer });
}

test('two instances on one Redis: chains toggled and numbers set at the same moment on both are all kept', {
  skip,
}, async (t) => {
  const redis = await startRedis(t);
  const one = await harness({ storeUrl: redis.url });
  const two = await harness({ storeUrl: redis.url });
  t.after(() => Promise.all([one.close(), two.close()]));
  const a = admin('admin-a');
  const b = admin('admin-b');
  let v = (await one.dispatcher.text('/settings', a))!;
  v = await press(one, v, 'Alerts', a);
  v = await press(one, v, 'Turn alerts on', a);
  v = await press(one, v, 'Back', a);
  const chains = await press(one, v, 'Chains', a);
  const on = new Set(['solana', 'aptos', 'bsc', 'base', 'sui']);
  const rounds = [
    ['Base', 'Sui'],
    ['Base', 'Aptos'],
    ['Sui', 'Solana'],
    ['BNB Chain', 'Aptos'],
    ['Solana', 'Base'],
  ] as const;
  const ids: Record<string, string> = {
    Solana: 'solana',
    Aptos: 'aptos',
    'BNB Chain': 'bsc',
    Base: 'base',
    Sui: 'sui',
  };
  // The first instance's read is held until the second instance has pressed and written: the
  // first then writes over a version it did not read, the way two processes interleave.
  const subs = one.store.subscriptions;
  const read = subs.get.bind(subs);
  let hold: { read: () => void; until: Promise<void> } | undefined;
  subs.get = async (id) => {
    const got = await read(id);
    const h = id === 'console:shared' ? hold : undefined;
    hold = undefined;
    if (h) {
      h.read();
      await h.until;
    }
    return got;
  };
  for (const [x, y] of rounds) {
    let release = () => {};
    const until = new Promise<void>((r) => (release = r));
    const first = new Promise<void>((r) => (hold = { read: r, until }));
    // The buttons' state is in the shared store: the second instance answers a press on the first one's panel.
    const pressed = press(one, chains, x, a);
    await first;
    const second = await press(two, chains, y, b);
    release();
    for (const r of [await pressed, second]) assert.equal(r.kind, 'card', r.kind === 'error' ? r.message : '');
    for (const c of [ids[x]!, ids[y]!]) if (!on.delete(c)) on.add(c);
    const stored = (await two.store.subscriptions.get('console:shared'))!.filters.chains;
    assert.deepEqual([...stored].sort(), [...on].sort(), `after ${x} and ${y} at once`);
  }
  const filters = await press(one, v, 'Filters', a);
  await Promise.all([
    press(one, filters, 'Token score', a, '81'),
    press(two, filters, 'KOL score', b, '91'),
    press(one, filters, 'Followers', a, '5000'),
    press(two, filters, 'Cooldown', b, '15'),
  ]);
  const f = (await two.store.subscriptions.get('console:shared'))!.filters;
  assert.deepEqual([f.minTokenScore, f.minKolScore, f.minFollowers, f.cooldownMinutes], [81, 91, 5000, 15]);
});
