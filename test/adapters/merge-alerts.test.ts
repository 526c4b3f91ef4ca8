/**
 * Several KOLs shilling one token within the cooldown: one message per chat,
 * edited in place to name them all, through the real discord.js and grammY.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bothPlatforms } from '../helpers/platforms.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { until } from '../helpers/wait.ts';

test('a later KOL within the cooldown edits the alert on both platforms; a click on the alert answers without replacing it', {
  timeout: 60_000,
}, async (t) => {
  const { discord, telegram, app, dc, tg } = await bothPlatforms(t, {
    channels: ['830000000000000001'],
    guildId: '930000000000000001',
    telegramToken: '7000000006:AAFakeTokenForTheMergeTest_0123456',
  });
  await app.store.subscriptions.put(openSubscription('discord', '830000000000000001', { cooldownMinutes: 60 }));
  await app.store.subscriptions.put(openSubscription('telegram', '7100001', { cooldownMinutes: 60 }));
  const watcher = app.startAlerts([dc.sender, tg.sender]);
  await watcher.tick();
  const sb = app.sandbox!;
  const tok = sb.data.tokens.find((x) => /^[A-Z0-9]+$/.test(x.symbol))!;
  const [k1, k2] = sb.data.kols;
  sb.addTweets(1, { token: tok.id, kol: k1!.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  await until(
    () => discord.channelMessages('830000000000000001').length === 1 && telegram.messages(7100001).length === 1,
    'the first alert on both platforms',
  );
  sb.addTweets(1, { token: tok.id, kol: k2!.id, tokenScore: 95, kolScore: 95 });
  await watcher.tick();
  const named = () =>
    // As Discord shows it: markdown escapes (\\_) are not visible.
    JSON.stringify(discord.channelMessages('830000000000000001')[0]?.embeds ?? '')
      .replace(/\\\\/g, '')
      .includes(`@${k2!.username}`) && (telegram.messages(7100001)[0]?.text ?? '').includes(`@${k2!.username}`);
  await until(named, 'the one message to name the second KOL too');
  assert.equal(discord.channelMessages('830000000000000001').length, 1, 'Discord: still one message');
  assert.equal(telegram.messages(7100001).length, 1, 'Telegram: still one message');
  assert.match(telegram.messages(7100001)[0]!.text ?? '', /shilled by 2 KOLs/);
  assert.equal(discord.violations.length + telegram.violations.length, 0);

  // A member presses "Token card" on the shared alert: the answer is theirs, the alert stays.
  const alert = discord.channelMessages('830000000000000001')[0]!;
  const buttons = (alert.components as { components: { label?: string; custom_id?: string }[] }[]).flatMap(
    (r) => r.components,
  );
  const tokenButton = buttons.find((b) => b.label === 'Token card')!;
  const click = await discord.clickButton({ customId: tokenButton.custom_id!, message: alert });
  await click.waitFor('original');
  assert.equal(click.callbacks[0]!.type, 5, 'deferred as a new (private) reply, not an update');
  assert.equal(
    discord.channelMessages('830000000000000001')[0]!.embeds[0]!['title'],
    alert.embeds[0]!['title'],
    'the alert is unchanged',
  );
  const tgAlert = telegram.messages(7100001)[0]!;
  const tgButton = (
    tgAlert.reply_markup as { inline_keyboard: { text: string; callback_data?: string }[][] }
  ).inline_keyboard
    .flat()
    .find((b) => b.text === 'Token card')!;
  telegram.pressButton({ chatId: 7100001, messageId: tgAlert.message_id, data: tgButton.callback_data! });
  await until(() => telegram.messages(7100001).length >= 2, 'the token card after the press');
  assert.equal(telegram.messages(7100001).length, 2, 'the card comes as a new message');
  assert.equal(telegram.messages(7100001)[0]!.text, tgAlert.text, 'the alert is unchanged');
  assert.ok(telegram.messages(7100001)[1]!.text?.includes(tok.symbol));
});
