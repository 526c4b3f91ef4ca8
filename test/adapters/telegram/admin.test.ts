import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Api } from 'grammy';
import { createAdminCheck } from '../../../src/adapters/telegram/admin.ts';
import { silentLogger } from '../../../src/log.ts';

test('admin answers are kept: a yes for a minute, a no for seconds, so a new admin is not refused for long', async () => {
  let now = 0;
  let asked = 0;
  const status: Record<number, string> = { 1: 'administrator', 2: 'member' };
  const api = {
    getChatMember: async (_chat: number, user: number) => {
      asked++;
      return { status: status[user] };
    },
  } as unknown as Api;
  const admins = createAdminCheck(api, silentLogger(), { yesTtlMs: 60_000, noTtlMs: 5_000, now: () => now });
  assert.equal(await admins.isAdmin(-100, 1), true);
  assert.equal(await admins.isAdmin(-100, 2), false);
  assert.equal(asked, 2);
  now = 4_999;
  assert.equal(await admins.isAdmin(-100, 1), true);
  assert.equal(await admins.isAdmin(-100, 2), false);
  assert.equal(asked, 2, 'both answers still kept');
  status[2] = 'administrator';
  now = 5_000;
  assert.equal(await admins.isAdmin(-100, 2), true, 'the no has expired: asked again');
  assert.equal(await admins.isAdmin(-100, 1), true);
  assert.equal(asked, 3);
  now = 60_000;
  assert.equal(await admins.isAdmin(-100, 1), true);
  assert.equal(asked, 4, 'the yes has expired too');
});
