// No English reaches an answer in another language, for the answers converted so far.
// The next conversions add their commands to ANSWERS; the check itself stays as it is.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Caller } from '../../src/core/command.ts';
import { LOCALES } from '../../src/i18n/index.ts';
import { harness } from '../commands/harness.ts';
import { englishIn } from '../helpers/english.ts';

const h = await harness();
after(() => h.close());

const { kols, shills, tokens, tweets } = h.sandbox.data;
// Tweets are shown as their authors wrote them (cut to an excerpt): upstream text, not ours.
const contents = tweets.map((x) => x.content.replace(/\s+/g, ' '));
const quoted = (piece: string): boolean => {
  const core = piece.replace(/…$/, '').trim();
  return core.length > 0 && contents.some((c) => c.includes(core));
};
// A KOL with shills whose name is no part of another's; a token on Solana (one chain per address).
const kol = kols.find(
  (k) =>
    shills.filter((x) => x.kolId === k.id).length >= 5 &&
    !kols.some((o) => o !== k && o.username.toLowerCase().includes(k.username.toLowerCase())),
)!;
const token = tokens.find((t) => t.chain_id === 'solana')!;

// [line, admin?, chat type]: answers, errors and refusals.
const ANSWERS: [string, boolean, Caller['chatType']][] = [
  ['/help', false, 'private'],
  ['/start', false, 'private'],
  ['/help language', false, 'private'],
  ['/help help', false, 'private'],
  ['/help tken', false, 'private'],
  ['/help zzzzzz', false, 'private'],
  ['/language', false, 'group'],
  ['/language klingon', true, 'group'],
  ['/language ru', false, 'group'],
  // Errors from parsing, validation and the boundary.
  ['/tokenz', false, 'private'],
  ['/zzzzzz', false, 'private'],
  ['/kols sort:winrat', false, 'private'],
  ['/kols sort:zzzzzz', false, 'private'],
  ['/kols limit:999', false, 'private'],
  ['/kols limit:abc', false, 'private'],
  ['/kols srot:score', false, 'private'],
  ['/kols sort:score sort:rank', false, 'private'],
  ['/kols sort:', false, 'private'],
  ['/kols one two', false, 'private'],
  ['/kol', false, 'private'],
  ['/kol @nosuchkolatall', false, 'private'],
  ['/kol bad-name!', false, 'private'],
  ['/token solana 0x12', false, 'private'],
  ['/subscribe', false, 'group'],
  // Cards and lists.
  [`/kol @${kol.username}`, false, 'private'],
  [`/token solana ${token.address}`, false, 'private'],
  ['/token pe', false, 'private'],
  ['/token zzzzzzzzqqq', false, 'private'],
  ['/autocard', true, 'private'],
  ['/kols', false, 'private'],
  ['/kols sort:mentions', false, 'private'],
  ['/kols search:zzzzzzzzzz', false, 'private'],
  ['/tokens', false, 'private'],
  ['/tokens sort:liquidity new:24', false, 'private'],
  ['/tokens search:zzzzzzzzzz', false, 'private'],
  ['/winrate', false, 'private'],
  ['/winrate start:1d end:7d', false, 'private'],
  ['/winrate start:zz', false, 'private'],
  ['/winrate start:2999-01-01', false, 'private'],
  ['/kols min_score:80 max_score:20', false, 'private'],
  [`/momentum @${kol.username}`, false, 'private'],
  [`/kolmap @${kol.username}`, false, 'private'],
  [`/mindmap solana ${token.address}`, false, 'private'],
  ['/projects', false, 'private'],
  ['/tweets', false, 'private'],
  [`/tweets solana ${token.address}`, false, 'private'],
  [`/tweets solana ${token.address} sort:kolscore`, false, 'private'],
  ['/tweets sort:ranking', false, 'private'],
  // Alert settings: refused, off, on, shown, paused, muted, off again.
  ['/alerts', true, 'group'],
  ['/unsubscribe', true, 'group'],
  ['/subscribe chains:solana token_score:80', true, 'group'],
  ['/alerts', true, 'group'],
  ['/alerts pause 2h', true, 'group'],
  ['/alerts pause zz', true, 'group'],
  ['/alerts resume', true, 'group'],
  [`/mute solana ${token.address}`, true, 'group'],
  [`/mute solana ${token.address} off:yes`, true, 'group'],
  ['/mute solana 0x12', true, 'group'],
  ['/alerts test', true, 'group'],
  ['/unsubscribe', true, 'group'],
];

test('the English detector finds English in an English answer (it can fail)', async () => {
  const caller: Caller = {
    platform: 'telegram',
    userId: '1',
    chatId: 'leak-en',
    chatType: 'private',
    locale: 'en',
    canManage: async () => true,
  };
  const view = await h.dispatcher.text('/help', caller);
  assert.ok(englishIn(view!).length > 5);
});

test('converted answers carry no English in any other language', async () => {
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    for (const [line, admin, chatType] of ANSWERS) {
      const caller: Caller = {
        platform: 'telegram',
        userId: `leak-${locale}`,
        chatId: `leak-${locale}-${chatType}`,
        chatType,
        locale,
        canManage: async () => admin,
      };
      const view = await h.dispatcher.text(line, caller);
      assert.ok(view, line);
      assert.deepEqual(englishIn(view, quoted), [], `${locale} ${line}`);
    }
  }
});
