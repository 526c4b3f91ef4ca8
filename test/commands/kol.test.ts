import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { compact, int, pct, score } from '../../src/i18n/english.ts';
import { asCard, asError, asTable, column, field, harness } from './harness.ts';

const h = await harness();
after(() => h.close());

const { kols, shills } = h.sandbox.data;
const shillCount = (id: number) => shills.filter((s) => s.kolId === id).length;
// A KOL whose name is not a prefix of another's, with shilled tokens.
const kol = kols.find(
  (k) =>
    shillCount(k.id) >= 5 && !kols.some((o) => o !== k && o.username.toLowerCase().includes(k.username.toLowerCase())),
)!;

test('/kol @username shows that KOL with its scores from the score operation', async () => {
  const card = asCard(await h.send(`/kol @${kol.username}`));
  assert.equal(card.title, kol.display_name);
  assert.equal(card.url, `https://x.com/${kol.username}`);
  assert.equal(field(card, 'Score'), score(kol.stat.score));
  assert.equal(field(card, 'Score v2'), `${score(kol.stat.score_v2)} (#${int(kol.stat.position_by_score_v2)})`);
  assert.equal(field(card, 'Accuracy · speed'), `${score(kol.stat.accuracy_score)} · ${score(kol.stat.speed_score)}`);
  assert.equal(field(card, 'Shilled tokens'), int(shillCount(kol.id)));
  assert.equal(field(card, 'Smart followers'), compact(kol.stat.smart_follower_count));
  assert.equal(field(card, 'Rank'), `#${kol.stat.user_ranking}`);
  assert.equal(
    field(card, 'Win / rug rate'),
    `${pct(kol.stat.win_rate, 'fraction')} / ${pct(kol.stat.rug_rate, 'fraction')}`,
  );
});

test('the card carries the win rate per window after a shill', async () => {
  const card = asCard(await h.send(`/kol ${kol.username.toUpperCase()}`));
  const name = card.fields!.find((f) => f.name.startsWith('Win rate after a shill'))!;
  assert.match(name.name, new RegExp(`\\(${shillCount(kol.id)} tokens\\)`));
  const mine = shills.filter((s) => s.kolId === kol.id);
  // 7d is the last window: the share of shills whose price then was above the shill price.
  const wins7d = mine.filter((s) => Math.round(s.priceInitMantissa * s.multipliers[10]!) > s.priceInitMantissa).length;
  assert.ok(
    String(name.value).endsWith(`7d ${pct(wins7d / mine.length, 'fraction', { decimals: 0 })}`),
    String(name.value),
  );
});

test('/kol <numeric X id> shows the same card as /kol @username (name, labels, followers, rank); ids beyond 2^53 stay exact', async () => {
  // A KOL not looked up before in this file: its name is not remembered yet.
  const other = [...kols]
    .reverse()
    .find(
      (k) =>
        k !== kol &&
        shillCount(k.id) > 0 &&
        k.labels.length > 0 &&
        !kols.some((o) => o !== k && o.username.toLowerCase().includes(k.username.toLowerCase())),
    )!;
  assert.ok(BigInt(other.twitter_id) > BigInt(Number.MAX_SAFE_INTEGER));
  h.api.clearCache();
  h.sandbox.resetRequests();
  const byId = asCard(await h.send(`/kol ${other.twitter_id}`));
  assert.ok(h.sandbox.requests.some((r) => r.path === `/v2/x-users/${other.twitter_id}/score`));
  const byName = asCard(await h.send(`/kol @${other.username}`));
  const same = (c: typeof byId) =>
    JSON.stringify({ ...c, actions: c.actions?.map((a) => ({ ...a, id: undefined })), picture: undefined });
  assert.equal(same(byId), same(byName));
  assert.equal(byId.title, other.display_name);
  assert.match(JSON.stringify(byId.description), new RegExp(`@${other.username}.*${other.labels[0]}`));
  assert.equal(field(byId, 'Followers'), compact(other.follower_count));
  assert.equal(field(byId, 'Rank'), `#${other.stat.user_ranking}`);
});

test('an id whose name cannot be found says so in words instead of using the id as a name', async () => {
  const other = kols.find((k) => k !== kol && shillCount(k.id) > 2 && k.twitter_id.endsWith('7'))!;
  h.api.clearCache();
  h.sandbox.setFaults({ errorRate: 1, operations: ['kolWinRates'] });
  try {
    const card = asCard(await h.send(`/kol ${other.twitter_id}`));
    assert.equal(card.title, 'KOL name not found');
    assert.match(JSON.stringify(card.description), new RegExp(`No name found for X user id ${other.twitter_id}`));
    assert.equal(field(card, 'Score'), score(other.stat.score), 'the scores are still shown');
  } finally {
    h.sandbox.clearFaults();
  }
});

test('unknown KOLs get a not-found answer with an example', async () => {
  const byName = asError(await h.send('/kol @zz_nobody_here_zz'));
  assert.equal(byName.message.split('.')[0], 'No KOL named @zz_nobody_here_zz');
  assert.ok(byName.example);
  const byId = asError(await h.send('/kol 12345'));
  assert.match(byId.message, /^No KOL with id 12345/);
  const bad = asError(await h.send('/kol not-a-name!'));
  assert.match(bad.message, /username like @cobie/);
});

test('the card buttons open the KOL’s tokens and mindmap', async () => {
  const card = asCard(await h.send(`/kol @${kol.username}`));
  const tokens = asTable(await h.press(card, 'Tokens'));
  assert.equal(tokens.title, `Tokens shilled by @${kol.username}`);
  assert.equal(tokens.rows.length, Math.min(10, shillCount(kol.id)));
  const map = asTable(await h.press(card, 'Mindmap'));
  assert.equal(map.title, `Tokens mentioned by @${kol.username}`);
  assert.ok(column(map, 'token').every((t) => t.startsWith('$')));
});

test('the score and the win rates are fetched in parallel after the name is resolved', async () => {
  // From the end of the list: a KOL the tests above have not looked up, so the client's cache cannot answer.
  const other = kols.findLast(
    (k) =>
      k !== kol &&
      shillCount(k.id) > 0 &&
      !kols.some((o) => o !== k && o.username.toLowerCase().includes(k.username.toLowerCase())),
  )!;
  // Held long enough that two calls sent together are both in flight at once.
  h.sandbox.setFaults({ latencyMs: 300, operations: ['kolScore', 'kolTokens'] });
  try {
    h.sandbox.resetRequests();
    asCard(await h.send(`/kol @${other.username}`));
    const score = h.sandbox.requests.find((r) => r.operation === 'kolScore')!;
    const rates = h.sandbox.requests.find((r) => r.operation === 'kolTokens')!;
    assert.ok(
      score.started < rates.finished && rates.started < score.finished,
      'score and win rates ran one after the other',
    );
  } finally {
    h.sandbox.clearFaults();
  }
});
