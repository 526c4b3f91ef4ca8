import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { snowflake, type InteractionHandle } from '../../fakes/discord/index.ts';
import {
  assertNoPings,
  embedOf,
  field,
  MANAGER,
  MANAGER_PERMISSIONS,
  MEMBER,
  parseUsd,
  privateAnswer,
  publicAnswer,
  shown,
  startHarness,
  until,
  type Harness,
} from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const str = (name: string, value: string) => ({ name, type: 3, value });

/**
 * Discord's window: the first callback must arrive within 3 s of the
 * interaction. The fake enforces it as Discord does (a late callback is
 * refused as an unknown interaction), so a recorded callback was in time.
 */
async function acknowledgedInTime(i: InteractionHandle, type: number): Promise<void> {
  await i.waitFor('callback');
  assert.equal(i.callbacks[0]!.type, type, `first callback is type ${type}`);
}

test('/token: deferred at once, then a public card with the sandbox token’s symbol and market cap', async () => {
  const token = h.app.sandbox!.data.tokens.find((t) => t.chain_id === 'solana' && t.marketcap > 1000)!;
  const i = await h.fake.sendCommand({
    name: 'token',
    channelId: h.channels[0]!,
    options: [str('chain', token.chain_id), str('address', token.address)],
  });
  await acknowledgedInTime(i, 5);
  const m = await publicAnswer(i);
  assertNoPings(m);
  assert.ok(shown(embedOf(m).title!).includes(token.symbol), `${embedOf(m).title} names ${token.symbol}`);
  const shownCap = parseUsd(field(m, 'Market cap'));
  assert.ok(
    Math.abs(shownCap - token.marketcap) / token.marketcap < 0.01,
    `market cap ${shownCap} ≈ ${token.marketcap}`,
  );
  assert.equal(i.followups.length, 0, 'one answer, no extra messages');
});

test('/kol: the card shows the score the upstream has for that KOL', async () => {
  const kol = h.app.sandbox!.data.kols[3]!;
  const expected = await h.app.api.getKolScore({ xUserId: kol.twitter_id });
  const i = await h.fake.sendCommand({
    name: 'kol',
    channelId: h.channels[0]!,
    options: [str('kol', `@${kol.username}`)],
  });
  await acknowledgedInTime(i, 5);
  const m = await publicAnswer(i);
  assertNoPings(m);
  assert.equal(shown(embedOf(m).title!), kol.display_name);
  assert.ok(
    Math.abs(Number(field(m, 'Score')) - expected.score) <= 0.05,
    `score ${field(m, 'Score')} ≈ ${expected.score}`,
  );
});

test('a paging button edits the same message in place with the next page', async () => {
  const first = await h.fake.sendCommand({ name: 'kols', channelId: h.channels[1]!, options: [] });
  const page1 = await publicAnswer(first);
  assert.match(embedOf(page1).footer!.text, /^1-10 of \d+/);
  const rows1 = embedOf(page1).description;
  const next = (page1.components[0] as { components: { label: string; custom_id?: string }[] }).components.find((b) =>
    b.label.startsWith('Next'),
  );
  assert.ok(next?.custom_id, 'a Next button');

  const click = await h.fake.clickButton({ customId: next.custom_id, message: page1 });
  await acknowledgedInTime(click, 6);
  await click.waitFor((x) => (x.original?.edits ?? 0) >= 2);
  const page2 = h.fake.message(page1.id)!;
  assertNoPings(page2);
  assert.match(embedOf(page2).footer!.text, /^11-20 of \d+/);
  assert.notEqual(embedOf(page2).description, rows1, 'other rows');
  const labels = (page2.components[0] as { components: { label: string }[] }).components.map((b) => b.label);
  assert.ok(
    labels.some((l) => l.includes('Previous')),
    `buttons now: ${labels.join(', ')}`,
  );
  assert.equal(click.followups.length, 0, 'no new message');
});

test('the Mindmap button on a token card replaces it in place with a chart picture', async () => {
  // A Solana token mentioned often in the mindmap's default 12 hours, so it has linked tokens to draw.
  const sb = h.app.sandbox!.data;
  const recent = sb.tweets.filter((x) => x.tweetedMs > sb.now - 12 * 3_600_000);
  const token = sb.tokens
    .filter((t) => t.chain_id === 'solana')
    .map((t) => ({ t, n: recent.filter((x) => x.tokenIds.includes(t.id)).length }))
    .sort((a, b) => b.n - a.n)[0]!.t;
  const i = await h.fake.sendCommand({
    name: 'token',
    channelId: h.channels[1]!,
    options: [str('chain', 'solana'), str('address', token.address)],
  });
  const cardMessage = await publicAnswer(i);
  const buttons = cardMessage.components.flatMap(
    (r) => (r as { components: { label: string; custom_id?: string }[] }).components,
  );
  const mindmap = buttons.find((b) => b.label === 'Mindmap' && b.custom_id);
  assert.ok(mindmap, `a Mindmap button among ${buttons.map((b) => b.label).join(', ')}`);
  const click = await h.fake.clickButton({ customId: mindmap.custom_id!, message: cardMessage });
  await acknowledgedInTime(click, 6);
  await click.waitFor((x) => (x.original?.edits ?? 0) >= 2);
  const m = h.fake.message(cardMessage.id)!;
  assertNoPings(m);
  assert.equal(m.attachments.length, 1, 'one picture');
  const png = m.attachments[0]!;
  assert.match(png.filename, /\.png$/);
  assert.deepEqual([...png.data.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
  // The mindmap is text with the picture under it: the card's embed is gone, not left above it.
  assert.deepEqual(m.embeds, []);
  assert.ok(m.content.length > 20, 'the mindmap text');
  const labels = m.components.flatMap((r) => (r as { components: { label: string }[] }).components).map((b) => b.label);
  assert.ok(labels.includes('Token card'), `buttons now: ${labels.join(', ')}`);
  assert.equal(click.followups.length, 0);
});

test('an expired button answers privately and leaves the message as it was', async () => {
  // A message whose button key is well formed but no longer stored, as after its TTL.
  const sent = await h.adapter.sender.send(
    h.channels[1]!,
    {
      kind: 'card',
      title: 'Old page',
      actions: [{ label: 'Next ▶', command: 'kols', options: {}, id: 'a:AAAAAAAAAAAA' }],
    },
    'expired-test',
  );
  assert.equal(sent.kind, 'sent');
  const page = h.fake.channelMessages(h.channels[1]!).at(-1)!;
  const click = await h.fake.clickButton({ customId: 'a:AAAAAAAAAAAA', message: page });
  await acknowledgedInTime(click, 6);
  await click.waitFor((x) => x.followups.length > 0);
  const m = click.followups[0]!;
  assertNoPings(m);
  assert.equal(m.flags & 64, 64, 'only the clicker sees it');
  assert.match(embedOf(m).description!, /expired/);
  assert.equal(h.fake.message(page.id)!.edits, 0, 'the message is untouched');
  assert.equal(embedOf(h.fake.message(page.id)!).title, 'Old page');
});

test('a button replayed from another channel answers privately with a short notice and edits nothing', async () => {
  const list = await publicAnswer(await h.fake.sendCommand({ name: 'kols', channelId: h.channels[2]!, options: [] }));
  const next = (list.components[0] as { components: { label: string; custom_id?: string }[] }).components.find((b) =>
    b.label.startsWith('Next'),
  )!;
  const token = h.app.sandbox!.data.tokens.find((t) => t.chain_id === 'solana')!;
  const card = await publicAnswer(
    await h.fake.sendCommand({
      name: 'token',
      channelId: h.channels[3]!,
      options: [str('chain', 'solana'), str('address', token.address)],
    }),
  );
  const editsBefore = h.fake.message(card.id)!.edits;
  const listEdits = h.fake.message(list.id)!.edits;
  const click = await h.fake.clickButton({ customId: next.custom_id!, message: card, forged: true });
  await acknowledgedInTime(click, 6);
  await click.waitFor((x) => x.followups.length > 0);
  const m = click.followups[0]!;
  assert.equal(m.flags & 64, 64, 'only the clicker sees it');
  assert.equal(embedOf(m).description, 'This button does not belong to this message.');
  assert.equal(h.fake.message(card.id)!.edits, editsBefore, 'the card is untouched');
  assert.equal(h.fake.message(list.id)!.edits, listEdits, 'the list is untouched');
});

test("KOL autocomplete answers within Discord's window with sandbox usernames matching what was typed", async () => {
  const kol = h.app.sandbox!.data.kols[7]!;
  const typed = kol.username.slice(0, 4);
  const i = await h.fake.sendAutocomplete({
    name: 'kol',
    channelId: h.channels[0]!,
    options: [{ name: 'kol', type: 3, value: typed, focused: true }],
  });
  await acknowledgedInTime(i, 8);
  const choices = i.callbacks[0]!.data!['choices'] as { name: string; value: string }[];
  assert.ok(
    choices.some((c) => c.value === kol.username),
    `${kol.username} among ${choices.map((c) => c.value).join(', ')}`,
  );
  const usernames = new Set(h.app.sandbox!.data.kols.map((k) => k.username));
  for (const c of choices) {
    assert.ok(usernames.has(c.value), `${c.value} is a sandbox username`);
    assert.ok(c.name.startsWith(`@${c.value}`), c.name);
    const k = h.app.sandbox!.data.kols.find((x) => x.username === c.value)!;
    assert.ok(
      `${k.username} ${k.display_name}`.toLowerCase().includes(typed.toLowerCase()),
      `${c.name} matches '${typed}'`,
    );
  }
});

test('autocomplete with a failing upstream answers an empty list in time', async (t) => {
  h.app.sandbox!.setFaults({ burst5xx: 20 });
  t.after(() => h.app.sandbox!.clearFaults());
  const i = await h.fake.sendAutocomplete({
    name: 'kol',
    channelId: h.channels[0]!,
    options: [{ name: 'kol', type: 3, value: 'zzq', focused: true }],
  });
  await acknowledgedInTime(i, 8);
  assert.deepEqual(i.callbacks[0]!.data!['choices'], []);
});

test('an invalid option is refused at once, privately, without deferring', async () => {
  const i = await h.fake.sendCommand({ name: 'kol', channelId: h.channels[0]!, options: [str('kol', 'not a name!')] });
  const m = await privateAnswer(i);
  assert.equal(i.callbacks[0]!.type, 4, 'answered directly');
  assertNoPings(m);
  assert.match(embedOf(m).description!, /kol must be a username/);
});

test('a mistake found while running (a bad address) is answered privately and leaves no public message', async () => {
  const i = await h.fake.sendCommand({
    name: 'token',
    channelId: h.channels[0]!,
    options: [str('chain', 'bsc'), str('address', '0x1234')],
  });
  await acknowledgedInTime(i, 5);
  const m = await privateAnswer(i);
  assertNoPings(m);
  assert.match(embedOf(m).description!, /not a BNB Chain token address|not a .* token address/);
  assert.equal(i.original!.deleted, true, 'the public reply is gone');
});

test('an upstream 404 gives a short private answer', async () => {
  const i = await h.fake.sendCommand({
    name: 'kol',
    channelId: h.channels[0]!,
    options: [str('kol', '99999999999999999')],
  });
  const m = await privateAnswer(i);
  assertNoPings(m);
  assert.match(embedOf(m).description!, /No KOL .*99999999999999999/);
  assert.ok(embedOf(m).description!.length < 300, 'short');
});

test('an upstream 5xx burst gives a short private answer the channel never sees, not even briefly, and the next command works', async () => {
  const token = h.app.sandbox!.data.tokens.filter((t) => t.chain_id === 'solana')[3]!;
  h.app.sandbox!.setFaults({ burst5xx: 10 });
  try {
    const i = await h.fake.sendCommand({
      name: 'token',
      channelId: h.channels[2]!,
      options: [str('chain', 'solana'), str('address', token.address)],
    });
    await acknowledgedInTime(i, 5);
    // Retries with backoff may use most of the command's 8 s budget before the answer is given.
    const m = await privateAnswer(i);
    assert.match(embedOf(m).description!, /slow or unavailable/);
  } finally {
    h.app.sandbox!.clearFaults();
  }
  const again = await h.fake.sendCommand({
    name: 'token',
    channelId: h.channels[2]!,
    options: [str('chain', 'solana'), str('address', token.address)],
  });
  const m = await publicAnswer(again);
  assert.ok(shown(embedOf(m).title!).includes(token.symbol));
});

test('an upstream that hangs: acknowledged within 3 s, then a private "too slow" answer; the bot stays connected', async (t) => {
  // A bot of its own with a short command budget: waiting the budget out is the scenario.
  const h = await startHarness({ adapter: { commandBudgetMs: 1500 } });
  t.after(() => h.close());
  const kol = h.app.sandbox!.data.kols[11]!;
  h.app.sandbox!.setFaults({ hangRate: 1 });
  try {
    const from = h.app.sandbox!.requests.length;
    const i = await h.fake.sendCommand({ name: 'kol', channelId: h.channels[2]!, options: [str('kol', kol.username)] });
    await acknowledgedInTime(i, 5);
    // Acknowledged before the upstream call gave up: its requests are all still open.
    assert.ok(
      h.app.sandbox!.requests.slice(from).every((r) => r.finished === 0),
      'deferred while the upstream still hung',
    );
    const m = await privateAnswer(i);
    // The upstream never answered one of them, and the bot gave each up (closed it) rather than
    // leaving it open: "too slow" came from the budget running out, not from an upstream error.
    const calls = h.app.sandbox!.requests.slice(from);
    assert.ok(calls.length > 0 && calls.every((r) => r.fault === 'hang' && r.status === 0), 'the upstream hung');
    await until(() => calls.every((r) => r.finished !== 0), 'the bot to give up the hung calls');
    assertNoPings(m);
    assert.match(embedOf(m).description!, /too long|slow or unavailable/);
  } finally {
    h.app.sandbox!.clearFaults();
  }
  assert.equal(h.adapter.isReady(), true);
  const later = await h.fake.sendCommand({
    name: 'kol',
    channelId: h.channels[2]!,
    options: [str('kol', kol.username)],
  });
  assert.equal(shown(embedOf(await publicAnswer(later)).title!), kol.display_name);
});

test('a 429 on the reply edit is waited out by the client; no request breaks a running limit', async () => {
  const cancel = h.fake.force429((r) => r.route.startsWith('/webhooks'), { count: 1, retryAfterMs: 400 });
  try {
    const i = await h.fake.sendCommand({ name: 'help', channelId: h.channels[3]!, options: [] });
    const m = await publicAnswer(i);
    assertNoPings(m);
  } finally {
    cancel();
  }
  assert.ok(
    h.fake.requests.some((r) => r.status === 429),
    'a 429 was served',
  );
  assert.deepEqual(h.fake.violations, []);
});

test('/subscribe: a plain member is refused and nothing is stored; a channel manager turns alerts on', async () => {
  const channel = h.channels[3]!;
  const id = `discord:${channel}`;
  const refused = await h.fake.sendCommand({ name: 'subscribe', channelId: channel, user: MEMBER, options: [] });
  const m = await privateAnswer(refused);
  assertNoPings(m);
  assert.match(embedOf(m).description!, /manage this channel/);
  assert.equal(await h.app.store.subscriptions.get(id), undefined);

  const ok = await h.fake.sendCommand({
    name: 'subscribe',
    channelId: channel,
    user: MANAGER,
    memberPermissions: MANAGER_PERMISSIONS,
    options: [{ name: 'token_score', type: 10, value: 80 }],
  });
  const card = await publicAnswer(ok);
  assertNoPings(card);
  assert.equal(embedOf(card).title, 'Alerts on');
  const sub = await h.app.store.subscriptions.get(id);
  assert.equal(sub?.createdBy, MANAGER.id);
  assert.equal(sub?.filters.minTokenScore, 80);
});

test('commands in a DM work, and an unknown command gets a private hint', async () => {
  const dm = snowflake();
  const help = await h.fake.sendCommand({ name: 'help', channelId: dm, options: [] });
  assertNoPings(await publicAnswer(help));
  const unknown = await h.fake.sendCommand({ name: 'tokn', channelId: dm, options: [] });
  const m = await privateAnswer(unknown);
  assert.match(embedOf(m).description!, /Did you mean \/token/);
});

test('after a dropped gateway connection the bot resumes and keeps answering', async () => {
  const resumed = h.fake.waitForGateway('resume');
  h.fake.dropConnection();
  await resumed;
  await until(() => h.adapter.isReady(), 'ready again');
  const i = await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]!, options: [] });
  assertNoPings(await publicAnswer(i));
});
