import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKolClient } from '../../src/api/index.ts';
import type { SomeCommand, Caller, Command } from '../../src/core/command.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { UserError } from '../../src/core/errors.ts';
import { opt } from '../../src/core/options.ts';
import { buildRegistry } from '../../src/core/registry.ts';
import { silentLogger } from '../../src/log.ts';
import { openStore } from '../../src/store/index.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';

const caller: Caller = {
  platform: 'telegram',
  userId: '42',
  chatId: '42',
  chatType: 'private',
  canManage: async () => false,
};

const pagesOptions = { offset: opt.integer({ min: 0 }) };
const pages = {
  name: 'pages',
  examples: ['/pages'],
  options: pagesOptions,
  run: async ({ offset = 0 }) => ({
    kind: 'text',
    text: `rows from ${offset}`,
    actions: [{ label: 'Next', command: 'pages', options: { offset: offset + 10 } }],
  }),
} satisfies Command<typeof pagesOptions>;

const admin = {
  name: 'admin',
  examples: ['/admin'],
  options: {},
  requires: 'manage',
  run: async () => ({ kind: 'text', text: 'done' }),
} satisfies SomeCommand;

const boom = {
  name: 'boom',
  examples: ['/boom'],
  options: {},
  run: async () => {
    throw new Error('secret internals at /srv/x.ts:1');
  },
} satisfies SomeCommand;

/** These commands' words, as the catalogue holds the real ones'. */
const texts = {
  commands: { pages: 'A paged list', admin: 'Admins only', boom: 'Fails', pair: 'Two calls at once' },
  options: { pages: { offset: 'first row' } },
};

async function setup(over: { now?: () => number; actionTtlMs?: number } = {}) {
  const store = await openStore('memory:');
  const api = createKolClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' });
  const d = createDispatcher({
    charts: sharedChartPool(),
    commands: buildRegistry([pages, admin, boom], texts),
    api,
    store,
    log: silentLogger(),
    ...over,
  });
  return {
    d,
    close: async () => {
      await api.close();
      await store.close();
    },
  };
}

test('buttons carry a short id that runs the stored query; an expired one names the command to run again', async (t) => {
  // Stored buttons expire on the store's clock (Date): moved by hand, so no machine is too slow for the TTL.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const { d, close } = await setup({ actionTtlMs: 40 });
  const first = await d.text('/pages', caller);
  const id = first!.actions![0]!.id!;
  assert.match(id, /^a:pages:[A-Za-z0-9_-]{12}$/);
  assert.ok(Buffer.byteLength(id) <= 64, 'fits Telegram callback data');
  const next = await d.action(id, caller);
  assert.equal(next.kind === 'text' ? next.text : '', 'rows from 10');
  t.mock.timers.tick(39);
  assert.equal((await d.action(id, caller)).kind, 'text', 'still there just before its TTL');
  t.mock.timers.tick(2);
  const expired = await d.action(id, caller);
  assert.equal(
    expired.kind === 'error' && expired.message,
    'This page has expired. Run /pages again for fresh results.',
  );
  await close();
});

test('past 10 commands in 30 s a user is answered politely, and others are not affected', async () => {
  let now = 1_000_000;
  const { d, close } = await setup({ now: () => now });
  for (let i = 0; i < 10; i++) assert.equal((await d.text('/pages', caller))?.kind, 'text');
  const limited = await d.text('/pages', caller);
  assert.equal(limited?.kind === 'error' && limited.message, "You're sending commands quickly. Try again in 30 s.");
  assert.equal((await d.text('/pages', { ...caller, userId: '43' }))?.kind, 'text', 'another user is served');
  now += 30_001;
  assert.equal((await d.text('/pages', caller))?.kind, 'text', 'served again after the window');
  await close();
});

test('once a command has answered, the upstream calls it no longer awaits are stopped; the caller’s signal is left alone', async () => {
  const store = await openStore('memory:');
  const api = createKolClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' });
  let stopped = false;
  // As /kol with an unknown id: the score fails at once while the name lookup beside it is still retrying.
  const pair = {
    name: 'pair',
    examples: ['/pair'],
    options: {},
    run: async (_input, ctx) => {
      const nicety = new Promise<string>((resolve) => {
        const onAbort = () => {
          stopped = true;
          resolve('stopped');
        };
        ctx.signal.addEventListener('abort', onAbort, { once: true });
      });
      const [, score] = await Promise.all([nicety, Promise.reject(new UserError('No such KOL.'))]);
      return { kind: 'text', text: String(score) };
    },
  } satisfies SomeCommand;
  const d = createDispatcher({
    charts: sharedChartPool(),
    commands: buildRegistry([pair], texts),
    api,
    store,
    log: silentLogger(),
  });
  const outer = new AbortController();
  const answer = await d.run('pair', {}, caller, { signal: outer.signal });
  assert.equal(answer.kind === 'error' && answer.message, 'No such KOL.');
  assert.equal(stopped, true, 'the call still running when the answer went out was stopped');
  assert.equal(outer.signal.aborted, false, 'the adapter’s own signal is not aborted');
  await api.close();
  await store.close();
});

test('permission, unknown commands and internal failures get short answers without internals', async () => {
  const { d, close } = await setup();
  const denied = await d.text('/admin', { ...caller, chatType: 'group' });
  assert.equal(denied?.kind === 'error' && denied.message, 'Only group admins may change this chat’s alerts.');
  const unknown = await d.text('/pagez', caller);
  assert.equal(unknown?.kind === 'error' && unknown.message, 'Unknown command /pagez. Did you mean /pages?');
  const failed = await d.text('/boom', caller);
  assert.equal(failed?.kind === 'error' && failed.message, 'Something went wrong on our side. Try again.');
  assert.doesNotMatch(JSON.stringify(failed), /secret internals|\.ts:/);
  assert.equal(await d.text('just chatting', caller), undefined, 'chatter is not a command');
  await close();
});

test('with the store down an answer still goes out, without buttons; a pressed button says to try again', async (t) => {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-dispatch-'));
  const store = await openStore(`sqlite:${join(dir, 's.sqlite')}`);
  const api = createKolClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' });
  t.after(async () => {
    await api.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  const d = createDispatcher({
    charts: sharedChartPool(),
    commands: buildRegistry([pages], texts),
    api,
    store,
    log: silentLogger(),
  });
  const ok = await d.text('/pages', caller);
  store.setFailing(true);
  const degraded = await d.text('/pages', caller);
  assert.equal(degraded?.kind === 'text' && degraded.text, 'rows from 0');
  assert.deepEqual(degraded?.actions ?? [], [], 'no button whose state could not be kept');
  const pressed = await d.action(ok!.actions![0]!.id!, caller);
  assert.equal(pressed.kind === 'error' && pressed.message, 'Buttons are unavailable for a moment. Try again shortly.');
  store.setFailing(false);
  assert.equal((await d.action(ok!.actions![0]!.id!, caller)).kind, 'text', 'works again once the store is back');
});

test('a button works only in the chat it was made for, and only on a message that shows it', async () => {
  const { d, close } = await setup();
  const first = await d.text('/pages', caller);
  const id = first!.actions![0]!.id!;
  const elsewhere: Caller = { ...caller, chatId: '-100777', chatType: 'group' };
  const foreign = await d.action(id, elsewhere);
  assert.equal(foreign.kind === 'error' && foreign.message, 'This button does not belong to this message.');
  const otherPlatform = await d.action(id, { ...caller, platform: 'discord' });
  assert.equal(otherPlatform.kind, 'error', 'the same chat id on another platform is another chat');
  const notOnMessage = await d.action(id, caller, { buttonsOnMessage: ['a:pages:AAAAAAAAAAAA'] });
  assert.equal(notOnMessage.kind === 'error' && notOnMessage.message, 'This button does not belong to this message.');
  const ok = await d.action(id, caller, { buttonsOnMessage: [id] });
  assert.equal(ok.kind === 'text' ? ok.text : '', 'rows from 10');
  await close();
});

test('a limited sender is told once per wait: typed commands then get no answer, buttons and Discord commands still a notice', async () => {
  let now = 1_000_000;
  const { d, close } = await setup({ now: () => now });
  for (let i = 0; i < 10; i++) await d.text('/pages', caller);
  const told = await d.text('/pages', caller);
  assert.equal(told?.kind, 'error');
  assert.equal(await d.text('/pages', caller), undefined, 'silent the second time');
  assert.equal(await d.text('/pages', caller), undefined, 'and after');
  assert.equal((await d.run('pages', {}, caller)).kind, 'error', 'an interaction must still be answered');
  now += 30_001;
  assert.equal((await d.text('/pages', caller))?.kind, 'text', 'served again after the window');
  for (let i = 0; i < 9; i++) await d.text('/pages', caller);
  assert.equal((await d.text('/pages', caller))?.kind, 'error', 'a new wait is told again');
  await close();
});

test('people posting as a chat are limited per sending chat, not as the one placeholder user they share', async () => {
  const { d, close } = await setup();
  const anon = (chat: string): Caller => ({
    ...caller,
    userId: '1087968824',
    chatId: chat,
    chatType: 'group',
    senderChatId: chat,
  });
  for (let g = 0; g < 3; g++)
    for (let i = 0; i < 10; i++)
      assert.equal((await d.text('/pages', anon(`-100${g}`)))?.kind, 'text', `group ${g} command ${i}`);
  assert.equal((await d.text('/pages', anon('-1000')))?.kind, 'error', 'each chat still has its own limit');
  await close();
});

test('unknown command names share one metric label, whatever users type', async () => {
  const store = await openStore('memory:');
  const api = createKolClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' });
  const labels = new Set<string>();
  const d = createDispatcher({
    charts: sharedChartPool(),
    commands: buildRegistry([pages], texts),
    api,
    store,
    log: silentLogger(),
    userLimit: { count: 1_000, windowMs: 1_000 },
    onOutcome: (c) => labels.add(c),
  });
  for (let i = 0; i < 300; i++) await d.text(`/made_up_${i}`, { ...caller, userId: String(i % 3) });
  await d.text('/pages', caller);
  assert.deepEqual([...labels].sort(), ['pages', 'unknown']);
  await api.close();
  await store.close();
});

test('the limit, the dispatcher’s refusals, expired and foreign buttons speak the caller’s language', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  let now = 1_000_000;
  const { d, close } = await setup({ now: () => now, actionTtlMs: 500 });
  const ru: Caller = { ...caller, userId: '77', chatId: '77', locale: 'ru' };
  const first = await d.text('/pages', ru);
  const id = first!.actions![0]!.id!;
  for (let i = 0; i < 9; i++) await d.text('/pages', ru);
  const limited = await d.text('/pages', ru);
  assert.equal(limited?.kind === 'error' && limited.message, 'Слишком много команд подряд. Попробуй снова через 30 с.');
  now += 30_001;
  const denied = await d.text('/admin', { ...ru, chatType: 'group' });
  assert.equal(denied?.kind === 'error' && denied.message, 'Менять алерты этого чата могут только админы группы.');
  const zh: Caller = { ...ru, locale: 'zh-CN' };
  const failed = await d.text('/boom', zh);
  assert.equal(failed?.kind === 'error' && failed.message, '我们这边出了点问题，请再试一次。');
  const foreign = await d.action(id, { ...zh, chatId: 'elsewhere' });
  assert.equal(foreign.kind === 'error' && foreign.message, '这个按钮不属于这条消息。');
  const forged = await d.action(id, { ...ru, locale: 'ko' }, { buttonsOnMessage: ['a:pages:other'] });
  assert.equal(forged.kind === 'error' && forged.message, '이 버튼은 이 메시지의 버튼이 아니에요.');
  t.mock.timers.tick(501);
  const expired = await d.action(id, { ...ru, locale: 'es' });
  assert.equal(
    expired.kind === 'error' && expired.message,
    'Esta página caducó. Vuelve a usar /pages para ver datos actuales.',
  );
  await close();
});
