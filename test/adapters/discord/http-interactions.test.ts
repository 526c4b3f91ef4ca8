/**
 * Discord's HTTP interactions against the fake set to an Interactions Endpoint
 * URL: the same commands, buttons and autocomplete as on the gateway, the first
 * response as the HTTP answer, edits through REST. Requests not signed with the
 * application's key get 401 and run nothing; a stale timestamp too.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { openStore, type Store } from '../../../src/store/index.ts';
import { embedOf, publicAnswer, startHarness, type Harness } from './harness.ts';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
/** The raw 32-byte key as the Developer Portal shows it: hex. */
const PUBLIC_HEX = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');

let h: Harness;
let url: string;
let claims: Store;
before(async () => {
  // The store's claim, as bot.ts passes it (the harness builds the adapter before its app).
  claims = await openStore('memory:');
  h = await startHarness({
    adapter: {
      httpInteractions: { publicKey: PUBLIC_HEX, port: 0, host: '127.0.0.1' },
      claim: (k, ms) => claims.claim(k, ms),
    },
  });
  url = `http://127.0.0.1:${h.adapter.httpAddress()!.port}/interactions`;
  h.fake.setInteractionsEndpoint(url, privateKey);
});
after(async () => {
  await h.close();
  await claims.close();
});

const post = (body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
const signed = (body: string, timestamp = String(Math.floor(Date.now() / 1000))) => ({
  'x-signature-ed25519': sign(null, Buffer.from(timestamp + body), privateKey).toString('hex'),
  'x-signature-timestamp': timestamp,
});

/** Commands the dispatcher ran, whatever came of them (counted before the answer goes out). */
const ran = () => h.app.metrics.commandSeconds.count();

/**
 * A barrier: a later command through the endpoint, answered. A refused request that had
 * reached a command would have started it before its refusal was sent, so before this one.
 */
async function barrier(): Promise<void> {
  await publicAnswer(await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]!, options: [] }));
}

test('the endpoint passes the check Discord makes when the URL is saved (PING -> PONG, bad signature -> 401)', async () => {
  assert.equal(await h.fake.verifyInteractionsEndpoint(), true);
  assert.equal(h.adapter.isReady(), true);
  assert.deepEqual(h.adapter.roles?.(), { http: true });
  assert.equal(h.fake.sessionShards.length, 0, 'no gateway session at all');
});

test('a slash command: deferred in the HTTP answer, the card edited in through REST', async () => {
  const token = h.app.sandbox!.data.tokens.find((x) => x.chain_id === 'solana')!;
  const i = await h.fake.sendCommand({
    name: 'token',
    channelId: h.channels[0]!,
    options: [
      { name: 'chain', type: 3, value: 'solana' },
      { name: 'address', type: 3, value: token.address },
    ],
  });
  const m = await publicAnswer(i);
  assert.equal(i.callbacks.length, 1);
  assert.equal(i.callbacks[0]!.type, 5, 'the first response was a defer');
  assert.ok(embedOf(m).title!.includes(token.symbol), embedOf(m).title);
  assert.deepEqual(h.fake.interactionPosts.at(-1), { id: i.id, status: 200 });
});

test('a paging button and autocomplete take the same path', async () => {
  const first = await h.fake.sendCommand({ name: 'kols', channelId: h.channels[1]!, options: [] });
  const page1 = await publicAnswer(first);
  const next = (page1.components[0] as { components: { label: string; custom_id?: string }[] }).components.find((b) =>
    b.label.startsWith('Next'),
  )!;
  const click = await h.fake.clickButton({ customId: next.custom_id!, message: page1 });
  await click.waitFor((x) => (x.original?.edits ?? 0) >= 2);
  assert.equal(click.callbacks[0]!.type, 6);
  assert.match(embedOf(h.fake.message(page1.id)!).footer!.text, /^11-20 of \d+/);

  const kol = h.app.sandbox!.data.kols[3]!;
  const ac = await h.fake.sendAutocomplete({
    name: 'kol',
    channelId: h.channels[0]!,
    options: [{ name: 'kol', type: 3, value: kol.username.slice(0, 5), focused: true }],
  });
  await ac.waitFor('callback');
  assert.equal(ac.callbacks[0]!.type, 8);
  const choices = ac.callbacks[0]!.data!['choices'] as { value: string }[];
  assert.ok(choices.some((c) => c.value === kol.username));
});

test('a bad or missing signature gets 401 and runs nothing; a stale timestamp too', async () => {
  const before = h.app.sandbox!.count();
  const commands = ran();
  const body = JSON.stringify({
    id: '1300000000000000001',
    application_id: h.fake.applicationId,
    type: 2,
    token: 'x',
    version: 1,
    data: { id: '1', name: 'kols', type: 1 },
    channel_id: h.channels[0],
  });
  const good = signed(body);
  const tampered = {
    ...good,
    'x-signature-ed25519': good['x-signature-ed25519'].replace(/^./, (c) => (c === '0' ? '1' : '0')),
  };
  const other = signed(body.replace('kols', 'help'));
  const stale = signed(body, String(Math.floor(Date.now() / 1000) - 3600));
  const cases: Record<string, string>[] = [
    tampered,
    other,
    {},
    { 'x-signature-timestamp': good['x-signature-timestamp'] },
    stale,
  ];
  for (const headers of cases) {
    const res = await post(body, headers);
    assert.equal(res.status, 401);
    await res.arrayBuffer();
  }
  await barrier();
  assert.equal(ran(), commands + 1, 'only the barrier ran a command');
  assert.equal(h.app.sandbox!.count(), before, 'no command reached the upstream');
  const ping = JSON.stringify({ id: '1300000000000000002', type: 1 });
  const pong = await post(ping, signed(ping));
  assert.deepEqual(await pong.json(), { type: 1 });
});

test('a replay of a signed request already received is refused (409) and runs nothing', async () => {
  const i = await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]! });
  await publicAnswer(i);
  const commands = ran();
  // What Discord sent for that interaction, captured and sent again within the timestamp window.
  const body = JSON.stringify({
    id: i.id,
    application_id: h.fake.applicationId,
    type: 2,
    token: i.token,
    version: 1,
    data: { id: '1', name: 'help', type: 1 },
    channel_id: h.channels[0],
  });
  const res = await post(body, signed(body));
  assert.equal(res.status, 409);
  await res.arrayBuffer();
  await barrier();
  assert.equal(ran(), commands + 1, 'only the barrier ran a command');
  assert.equal(i.callbacks.length, 1);
  assert.equal(i.followups.length, 0);
});
