import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiscordAPIError, HTTPError, RateLimitError, type CommandInteractionOption } from 'discord.js';
import type { KolClient } from '../../../src/api/index.ts';
import { createKolSuggest } from '../../../src/adapters/discord/autocomplete.ts';
import { rawArgs } from '../../../src/adapters/discord/interactions.ts';
import { mapSendError } from '../../../src/adapters/discord/sender.ts';

const apiError = (status: number, code: number, message = 'x') =>
  new DiscordAPIError({ code, message }, code, status, 'POST', 'https://discord.test/api/v10/channels/1/messages', {
    body: {},
    files: undefined,
  });

test('rawArgs keeps typed values and flattens subcommand levels', () => {
  const data = [
    { name: 'chain', type: 3, value: 'solana' },
    { name: 'limit', type: 4, value: 5 },
    { name: 'last24h', type: 5, value: false },
    {
      name: 'group',
      type: 2,
      options: [{ name: 'sub', type: 1, options: [{ name: 'min_score', type: 10, value: 2.5 }] }],
    },
  ] as unknown as CommandInteractionOption[];
  assert.deepEqual(rawArgs(data), { chain: 'solana', limit: 5, last24h: false, min_score: 2.5 });
});

test('send errors: dead channels are gone (with the permission named), transient ones retry, bad messages are not resent', () => {
  const perm = mapSendError(apiError(403, 50013));
  assert.equal(perm.kind, 'gone');
  assert.match(perm.kind === 'gone' ? perm.reason : '', /Send Messages/);
  assert.equal(mapSendError(apiError(404, 10003)).kind, 'gone');
  assert.equal(mapSendError(apiError(403, 50001)).kind, 'gone');
  assert.equal(mapSendError(apiError(403, 20001)).kind, 'gone', 'any other 403 on a channel');
  assert.equal(mapSendError(apiError(400, 50035, 'Invalid Form Body')).kind, 'rejected', 'not resent, channel kept');
  assert.equal(
    mapSendError(new HTTPError(502, 'Bad Gateway', 'POST', '/x', { body: {}, files: undefined })).kind,
    'retry',
  );
  assert.equal(mapSendError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).kind, 'retry');
  const limited = mapSendError(
    new RateLimitError({
      timeToReset: 2000,
      limit: 5,
      method: 'POST',
      hash: 'h',
      url: '/x',
      route: '/channels/:id/messages',
      majorParameter: '1',
      global: false,
      retryAfter: 2000,
      sublimitTimeout: 0,
      scope: 'user',
    }),
  );
  assert.equal(limited.kind, 'retry');
  assert.ok(
    limited.kind === 'retry' && limited.reason.startsWith('429') && limited.afterMs >= 2000,
    'a 429 waits its time and does not count as a failure',
  );
});

function fakeTable(rows: { kol: string; display_name: string }[], calls: string[], fail = false): KolClient {
  return {
    async getKolTable(params: { search?: string }) {
      calls.push(params.search ?? '');
      if (fail) throw new Error('upstream down');
      return {
        items: rows.filter((r) => !params.search || r.kol.includes(params.search)),
        total: rows.length,
        meta: { limit: 10, offset: 0 },
      };
    },
  } as unknown as KolClient;
}

test('KOL suggestions: recent queries are cached whatever the case or @; failures answer nothing and are not cached', async () => {
  const calls: string[] = [];
  const long = 'x'.repeat(120);
  const suggest = createKolSuggest({
    api: fakeTable(
      [
        { kol: 'cobie', display_name: 'Cobie' },
        { kol: 'cobra', display_name: long },
      ],
      calls,
    ),
  });
  const first = await suggest('Cob');
  assert.deepEqual(first[0], { name: '@cobie — Cobie', value: 'cobie' });
  assert.ok(
    first.every((c) => c.name.length <= 100),
    'names fit Discord’s 100 characters',
  );
  assert.deepEqual(await suggest('@cob'), first);
  assert.deepEqual(calls, ['cob'], 'one upstream call');

  const failing: string[] = [];
  const down = createKolSuggest({ api: fakeTable([], failing, true) });
  assert.deepEqual(await down('abc'), []);
  assert.deepEqual(await down('abc'), []);
  assert.equal(failing.length, 2, 'a failure is asked again next time');
});
