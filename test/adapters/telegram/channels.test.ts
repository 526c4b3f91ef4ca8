// Broadcast channels end to end through grammY against the Bot API fake: the bot,
// a channel admin, takes commands posted there and posts alerts, follow-ups and
// digests; a post forwarded into the discussion group runs nothing; losing the
// right to post stops the channel's alerts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SentMessage } from '../../fakes/telegram/index.ts';
import { PATIENCE_MS } from '../../helpers/wait.ts';
import { eventually, rig, type Rig } from './helpers.ts';

const OPEN = '/subscribe token_score:0 kol_score:0 followers:0 cooldown:0';
const NEVER = '0 0 1 1 *';
const HOUR = 3_600_000;
const CHANNEL = { id: -1007001, type: 'channel' as const, title: 'Alpha calls' };
const DISCUSSION = { id: -1007002, type: 'supergroup' as const, title: 'Alpha chat' };

/** An admin posts in the channel; resolves with the bot's answer there. */
async function post(r: Rig, text: string): Promise<SentMessage> {
  const asked = (r.fake.postInChannel({ channel: CHANNEL, text })!.channel_post as { message_id: number }).message_id;
  return r.fake.waitForMessage(CHANNEL.id, (m) => m.reply_to_message_id === asked, PATIENCE_MS);
}

const delivered = (r: Rig) =>
  eventually(async () => (await r.app.store.outbox.pending()).length === 0, 'the outbox to empty');

async function channelRig(t: Parameters<typeof rig>[0], o: { marketClock?: () => number } = {}) {
  const r = await rig(t, { appLogs: true, ...o });
  r.fake.addChannel(CHANNEL);
  r.fake.setMember(CHANNEL.id, r.fake.botId, 'administrator');
  return r;
}

test('a channel: commands posted there are answered there, alerts, follow-up edits and a digest go there, other posts are not read', async (t) => {
  let clock = Date.now();
  const now = () => clock;
  const r = await channelRig(t, { marketClock: now });
  const on = await post(r, OPEN);
  assert.doesNotMatch(on.text!, /^⚠️/, on.text);
  const ru = await post(r, '/language ru');
  assert.match(ru.text!, /[А-Яа-я]/, 'the channel speaks Russian now');
  // A post that is no command (an address the bot would card in a group) is not read.
  const tok = r.sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  r.fake.postInChannel({ channel: CHANNEL, text: `new call: ${tok.address}` });
  const status = await post(r, '/alerts');
  assert.equal(r.fake.messages(CHANNEL.id).length, 3, 'three answers, nothing for the plain post');
  assert.doesNotMatch(status.text!, /^⚠️/);

  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER, followupNow: now });
  await watcher.tick();
  const kol = r.sb.data.kols[5]!;
  const shilled = r.sb.data.tokens.find((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)!;
  r.sb.addTweets(1, { token: shilled.id, kol: kol.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  await delivered(r);
  const alerts = () => r.fake.messages(CHANNEL.id).filter((m) => m.text?.startsWith(`${shilled.symbol} `));
  assert.equal(alerts().length, 1, 'the alert, in the channel');

  clock += HOUR + 60_000;
  await watcher.tick();
  await eventually(() => alerts()[0]!.edits.length === 1, 'the follow-up edit');

  const before = r.fake.messages(CHANNEL.id).length;
  const digest = await post(r, '/digest now');
  assert.doesNotMatch(digest.text!, /^⚠️/, digest.text);
  await delivered(r);
  await eventually(() => r.fake.messages(CHANNEL.id).length >= before + 2, 'the digest, after its confirmation');
  const sub = await r.app.store.subscriptions.get(`telegram:${CHANNEL.id}`);
  assert.equal(sub?.disabled, null);
});

test('a channel post forwarded automatically into its discussion group runs no command and no automatic card there', async (t) => {
  const r = await channelRig(t);
  r.fake.addChat(DISCUSSION);
  r.fake.setMember(DISCUSSION.id, r.fake.botId, 'administrator'); // reads every message there
  r.fake.linkDiscussion(CHANNEL.id, DISCUSSION.id);
  const tok = r.sb.data.tokens.find((x) => x.chain_id === 'solana')!;
  await post(r, '/help');
  r.fake.postInChannel({ channel: CHANNEL, text: `/token ${tok.address}` });
  r.fake.postInChannel({ channel: CHANNEL, text: `gm ${tok.address}` });
  // A barrier: a member's /help in the group, answered after both forwards were handled.
  const asked = r.fake.sendText({ chat: DISCUSSION, text: '/help' })!.message!.message_id;
  await r.fake.waitForMessage(DISCUSSION.id, (m) => m.reply_to_message_id === asked, PATIENCE_MS);
  assert.equal(r.fake.messages(DISCUSSION.id).length, 1, 'only the barrier was answered in the group');
});

test('demoted, or left without the right to post, the bot stops the channel’s alerts at once, with one log line', async (t) => {
  const r = await channelRig(t);
  await post(r, OPEN);
  r.fake.setMember(CHANNEL.id, r.fake.botId, 'administrator', { can_post_messages: false });
  await eventually(
    async () => (await r.app.store.subscriptions.get(`telegram:${CHANNEL.id}`))?.disabled !== null,
    'alerts stopped',
  );
  const sub = await r.app.store.subscriptions.get(`telegram:${CHANNEL.id}`);
  assert.equal(sub?.disabled?.reason, 'the bot may not post in the channel');
  // Demoted afterwards: already stopped, no second line. Promoted again, the bot answers a barrier
  // (a channel's updates are handled in order), and its alerts stay off until subscribed again.
  r.fake.setMember(CHANNEL.id, r.fake.botId, 'member');
  r.fake.setMember(CHANNEL.id, r.fake.botId, 'administrator');
  await post(r, '/help');
  assert.notEqual((await r.app.store.subscriptions.get(`telegram:${CHANNEL.id}`))?.disabled, null);
  const lines = r.logs.filter((l) => (JSON.parse(l) as { msg: string }).msg === 'telegram: alerts stopped');
  assert.equal(lines.length, 1);
});

test('a reader pressing an alert’s mute button under a channel post is refused; the channel’s settings stay as they are', async (t) => {
  const r = await channelRig(t);
  await post(r, OPEN);
  const watcher = r.app.startAlerts([r.adapter.sender], { cron: NEVER });
  await watcher.tick();
  const tok = r.sb.data.tokens.find((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)!;
  r.sb.addTweets(1, { token: tok.id, kol: r.sb.data.kols[5]!.id, tokenScore: 90, kolScore: 90 });
  await watcher.tick();
  await delivered(r);
  const alert = r.fake.messages(CHANNEL.id).find((m) => m.text?.startsWith(`${tok.symbol} `))!;
  const mute = (alert.reply_markup?.inline_keyboard ?? []).flat().find((b) => b.callback_data?.startsWith('a:+mute:'))!;
  const reader = { id: 7301, first_name: 'Reader' };
  const id = r.fake.pressButton({
    chatId: CHANNEL.id,
    messageId: alert.message_id,
    data: mute.callback_data!,
    from: reader,
  });
  await eventually(() => r.fake.answersFor(id).length === 1, 'the press answered');
  assert.equal(r.fake.answersFor(id)[0]!.show_alert, true, 'refused, said on the button');
  assert.deepEqual((await r.app.store.subscriptions.get(`telegram:${CHANNEL.id}`))?.mutedTokens, []);
});
