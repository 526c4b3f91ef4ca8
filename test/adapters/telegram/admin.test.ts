import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Api } from 'grammy';
import { createAdminCheck } from '../../../src/adapters/telegram/admin.ts';
import { silentLogger } from '../../../src/log.ts';

test('a yes is asked again at every check (a demoted admin is refused at once); a no is kept for seconds', async () => {
  let now = 0;
  let asked = 0;
  const status: Record<number, string> = { 1: 'administrator', 2: 'member' };
  const api = {
    getChatMember: async (_chat: number, user: number) => {
      asked++;
      return { status: status[user] };
    },
  } as unknown as Api;
  const admins = createAdminCheck(api, silentLogger(), { noTtlMs: 5_000, now: () => now });
  assert.equal(await admins.isAdmin(-100, 1), true);
  assert.equal(await admins.isAdmin(-100, 2), false);
  assert.equal(asked, 2);
  status[1] = 'member';
  assert.equal(await admins.isAdmin(-100, 1), false, 'demoted: refused at the next check');
  assert.equal(asked, 3);
  now = 4_999;
  assert.equal(await admins.isAdmin(-100, 2), false);
  assert.equal(asked, 3, 'the no is still kept');
  status[2] = 'administrator';
  now = 5_000;
  assert.equal(await admins.isAdmin(-100, 2), true, 'the no has expired: asked again');
  assert.equal(asked, 4);
});
