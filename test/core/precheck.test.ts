import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKolClient } from '../../src/api/index.ts';
import type { SomeCommand, Caller, Command } from '../../src/core/command.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { opt } from '../../src/core/options.ts';
import { buildRegistry } from '../../src/core/registry.ts';
import { silentLogger } from '../../src/log.ts';
import { openStore } from '../../src/store/index.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';

let ran = 0;
const countOptions = { n: opt.integer({ min: 1, max: 5, required: true }) };
const count = {
  name: 'count',
  examples: ['/count 2'],
  options: countOptions,
  run: async ({ n }) => {
    ran++;
    return { kind: 'text', text: `n=${n}` };
  },
} satisfies Command<typeof countOptions>;
const admin = {
  name: 'admin',
  examples: ['/admin'],
  options: {},
  requires: 'manage',
  run: async () => {
    ran++;
    return { kind: 'text', text: 'done' };
  },
} satisfies SomeCommand;

test('the pre-check an adapter asks before deferring refuses exactly what run() refuses without running', async (t) => {
  const store = await openStore('memory:');
  const api = createKolClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' });
  t.after(async () => {
    await api.close();
    await store.close();
  });
  const d = createDispatcher({
    charts: sharedChartPool(),
    commands: buildRegistry([count, admin], {
      commands: { count: 'Counts', admin: 'Admins only' },
      options: { count: { n: 'a number' } },
    }),
    api,
    store,
    log: silentLogger(),
  });
  const cases: [string, Record<string, unknown>, boolean][] = [
    ['count', { n: 2 }, true],
    ['count', { n: 2 }, false],
    ['count', { n: 9 }, true],
    ['count', {}, true],
    ['nope', {}, true],
    ['admin', {}, true],
    ['admin', {}, false],
  ];
  for (const [name, raw, canManage] of cases) {
    const caller: Caller = {
      platform: 'discord',
      userId: '1',
      chatId: '2',
      chatType: 'group',
      canManage: async () => canManage,
    };
    const before = ran;
    const refused = d.refusesAtOnce(name, raw, canManage);
    const view = await d.run(name, raw, caller);
    assert.equal(refused, ran === before, `${name} ${JSON.stringify(raw)} manage=${canManage}`);
    assert.equal(view.kind === 'error', refused);
  }
  assert.equal(ran, 3, 'count twice, admin once');
});
