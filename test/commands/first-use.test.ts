// What a new user types first, answered as they meant it: a mistyped command, a profile link, a time
// zone, a pause, a mute.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { asCard, asError, asText, harness, plain, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await harness();
});
after(() => h.close());

test('an unknown command suggests the nearest one, a swap of two letters included', async () => {
  assert.match(asError(await h.send('/tokne solana x')).message, /Did you mean \/token\?/);
  assert.match(asError(await h.send('/mindmpa')).message, /Did you mean \/mindmap\?/);
  assert.doesNotMatch(asError(await h.send('/zzzzzz')).message, /Did you mean/);
});

test('/kol takes an x.com or twitter.com profile link as the @handle', async () => {
  const kol = h.sandbox.data.kols[0]!;
  const byHandle = asCard(await h.send(`/kol @${kol.username}`));
  for (const link of [
    `https://x.com/${kol.username}`,
    `x.com/${kol.username}`,
    `https://twitter.com/${kol.username}/`,
    `https://x.com/${kol.username}/status/1790912474830548992`,
  ]) {
    const card = asCard(await h.send(`/kol ${link}`));
    assert.equal(card.title, byHandle.title, link);
  }
  assert.match(asError(await h.send('/kol https://x.com/home')).message, /./);
});

test('a time zone is echoed as the admin typed it; /alerts pause says until when in the chat’s zone', async () => {
  assert.notEqual((await h.send('/subscribe')).kind, 'error');
  const digest = plain(asText(await h.send('/digest daily at:09:00 tz:Asia/Kathmandu')).text);
  assert.match(digest, /Asia\/Kathmandu/);
  assert.doesNotMatch(digest, /Katmandu/);
  const quiet = plain(asText(await h.send('/alerts quiet 23:00-07:00 tz:europe/kyiv')).text);
  assert.match(quiet, /Europe\/Kyiv/);
  assert.doesNotMatch(quiet, /Kiev/);
  const before = Date.now();
  const paused = plain(asText(await h.send('/alerts pause 2h')).text);
  const after = Date.now();
  // Nepal is UTC+5:45, Kyiv (the quiet hours' zone, the chat's own) UTC+2 or +3: the clock must be Kyiv's.
  const clocks = [before, after].map((ms) => {
    const p = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Kyiv',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(ms + 2 * 3_600_000);
    return `${p} (Europe/Kyiv)`;
  });
  assert.ok(
    clocks.some((c) => paused.includes(c)),
    `${paused} names ${clocks[0]}`,
  );
  assert.match(plain(asCard(await h.send('/alerts')).description), /Europe\/Kyiv/);
  await h.send('/alerts resume');
});

test('/mute names the token by its symbol, with a short address', async () => {
  const said = plain(asText(await h.send('/mute solana So11111111111111111111111111111111111111112')).text);
  assert.match(said, /\$SOL \(So1111…1112\)/);
  assert.doesNotMatch(said.replace(/\/mute \S+ \S+ off:yes/, ''), /So11111111111111111111111111111111111111112/);
  const back = plain(asText(await h.send('/mute solana So11111111111111111111111111111111111111112 off:yes')).text);
  assert.match(back, /\$SOL/);
});

test('a pick list tells clones apart: short address, liquidity and age when a symbol repeats on one chain', async () => {
  const bySymbol = new Map<string, typeof h.sandbox.data.tokens>();
  for (const tk of h.sandbox.data.tokens) {
    const k = `${tk.chain_id}:${tk.symbol}`;
    bySymbol.set(k, [...(bySymbol.get(k) ?? []), tk]);
  }
  const clones = [...bySymbol.values()].find((l) => l.length >= 2 && /^[A-Z]{3,}$/.test(l[0]!.symbol));
  assert.ok(clones, 'the sandbox holds tokens sharing a symbol on one chain');
  const [a, b] = clones;
  const view = await h.send(`/token $${a!.symbol} chain:${a!.chain_id}`);
  assert.equal(view.kind, 'table', `${a!.symbol}: a pick list`);
  const notes = (view.kind === 'table' ? (view.notes ?? []) : []).map(plain).join('\n');
  const short = (x: string) => `${x.slice(0, 6)}…${x.slice(-4)}`;
  for (const tk of [a!, b!]) assert.ok(notes.includes(short(tk.address)), `${short(tk.address)} in\n${notes}`);
  assert.match(notes, /Liquidity \$/);
  assert.match(notes, /Age /);
  const labels = (view.actions ?? []).map((x) => x.label);
  assert.ok(
    labels.some((l) => l.includes(short(a!.address))),
    labels.join(' | '),
  );
  assert.equal(new Set(labels.map((l) => l.replace(/^\d+\. /, ''))).size, labels.length, 'no two buttons read alike');
});
