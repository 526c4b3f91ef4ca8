// The call card picture: the "Call card" button on /mycall's answer and on /stats draws the call
// (token, caller, market cap at the call, peak, now, multiple) in the chart pool, in the chat's
// language; a call forgotten meanwhile answers so instead of a broken picture.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { callCardInput } from '../../src/views/cards/memberCalls.ts';
import { translator } from '../../src/i18n/index.ts';
import { usd } from '../../src/i18n/english.ts';
import { caller, harness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await harness();
});
after(() => h.close());

const PICTURES = { capabilities: { pictures: true, buttons: true } };

test('"Call card" on /mycall draws the call; its figures are the call’s, its words the chat’s', async () => {
  await h.send('/callboard on');
  const tok = h.sandbox.data.tokens.find((x) => x.chain_id === 'solana' && x.marketcap > 0)!;
  const answer = await h.send(`/mycall ${tok.address}`);
  const button = (answer.actions ?? []).find((a) => a.label.startsWith('Call card'));
  assert.ok(button?.id, `buttons: ${(answer.actions ?? []).map((a) => a.label)}`);
  const [call] = await h.store.members.list('console:c1', 0);
  // A pump sampled since: peak and now move, the multiple with them.
  await h.store.calls.save([
    {
      ...call!,
      samples: [{ at: call!.at + 300_000, marketCap: tok.marketcap * 2.5, point: 5 }],
      peak: tok.marketcap * 3,
      next: 1,
    },
  ]);
  const drawn = await h.dispatcher.action(button.id, caller, PICTURES);
  assert.equal(drawn.kind, 'text');
  const picture = (drawn as { picture?: { png: Uint8Array; alt: string } }).picture!;
  assert.deepEqual([...picture.png.slice(1, 4)], [...Buffer.from('PNG')], 'a PNG');
  assert.match(picture.alt, /called by u1: 2\.5x since the call/);
  const input = callCardInput((await h.store.calls.getMany([call!.id]))[0]!, translator('en'), call!.at + 600_000);
  assert.deepEqual(
    input.boxes.map((b) => [b.label, b.value, b.sub]),
    [
      ['Called at', usd(tok.marketcap), undefined],
      ['Peak', usd(tok.marketcap * 3), '3x'],
      ['Now', usd(tok.marketcap * 2.5), '2.5x'],
    ],
  );
  assert.equal(input.multiple, '2.5x');
  assert.equal(input.subtitle, 'called by u1 · 10m ago');
  const ru = callCardInput(call!, translator('ru'), call!.at);
  assert.match(ru.subtitle, /^колл от u1/);
  // /stats offers the same button; a call forgotten since answers in words.
  const stats = await h.send('/stats');
  assert.ok((stats.actions ?? []).some((a) => a.label.startsWith('Call card')));
  await h.send('/callboard forget');
  const gone = await h.dispatcher.action(button.id, caller, PICTURES);
  assert.equal(gone.kind, 'error');
  assert.match((gone as { message: string }).message, /no longer on this board/);
});
