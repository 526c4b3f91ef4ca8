// The caller's Discord locale and a channel's /language, through the real discord.js client and the fake.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeMessage } from '../../fakes/discord/index.ts';
import {
  embedOf,
  MANAGER,
  MANAGER_PERMISSIONS,
  MEMBER,
  privateAnswer,
  publicAnswer,
  shown,
  startHarness,
  type Harness,
} from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const str = (name: string, value: string) => ({ name, type: 3, value });
const read = (m: FakeMessage): string =>
  shown([m.content, ...m.embeds.map((e) => (e as { description?: string }).description ?? '')].join('\n'));

test("/help answers in the member's Discord locale", async () => {
  const zh = await publicAnswer(
    await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]!, locale: 'zh-CN', options: [] }),
  );
  assert.match(read(zh), /代币卡片（按 CA、链接、\$代号或名称）：市值、流动性/);
  const es = await publicAnswer(
    await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]!, locale: 'es-419', options: [] }),
  );
  assert.match(read(es), /Ficha del token por CA/);
  const en = await publicAnswer(
    await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]!, locale: 'en-GB', options: [] }),
  );
  assert.match(read(en), /Token card by address, link/);
});

test('a channel manager sets the channel language; members then read it whatever their locale', async () => {
  const channelId = h.channels[1]!;
  const denied = await privateAnswer(
    await h.fake.sendCommand({
      name: 'language',
      channelId,
      user: MEMBER,
      locale: 'en-US',
      options: [str('code', 'ru')],
    }),
  );
  assert.match(read(denied), /Only members who can manage this channel can change its language\./);

  const set = await publicAnswer(
    await h.fake.sendCommand({
      name: 'language',
      channelId,
      user: MANAGER,
      memberPermissions: MANAGER_PERMISSIONS,
      locale: 'en-US',
      options: [str('code', 'ru')],
    }),
  );
  assert.match(read(set), /теперь в этом чате я говорю по-русски/);
  const help = await publicAnswer(
    await h.fake.sendCommand({ name: 'help', channelId, user: MEMBER, locale: 'ko', options: [] }),
  );
  assert.match(read(help), /Карточка токена/);
  // The next channel keeps following each member.
  const other = await publicAnswer(
    await h.fake.sendCommand({ name: 'help', channelId: h.channels[2]!, user: MEMBER, locale: 'ko', options: [] }),
  );
  assert.match(read(other), /토큰 카드/);
});

test('through the Discord fake: a table, its page button and an error in the member’s locale, within embed limits', async () => {
  const channelId = h.channels[2]!;
  const first = await h.fake.sendCommand({ name: 'kols', channelId, locale: 'zh-CN', options: [] });
  const page1 = await publicAnswer(first);
  const embed = page1.embeds[0] as { title?: string; description?: string; footer?: { text: string } };
  assert.match(embed.footer!.text, /^1-10 \/ 共 \d+ · 按 score 排序/);
  const next = (page1.components[0] as { components: { label: string; custom_id?: string }[] }).components.find((b) =>
    b.label.startsWith('下一页'),
  );
  assert.ok(next?.custom_id, 'a 下一页 button');
  const click = await h.fake.clickButton({ customId: next.custom_id, message: page1, locale: 'zh-CN' } as never);
  await click.waitFor((x) => (x.original?.edits ?? 0) >= 2);
  const page2 = h.fake.message(page1.id)!;
  assert.match((page2.embeds[0] as { footer: { text: string } }).footer.text, /^11-20 \/ 共/);
  const bad = await privateAnswer(
    await h.fake.sendCommand({
      name: 'kols',
      channelId,
      locale: 'tr',
      options: [{ name: 'sort', type: 3, value: 'winrat' }],
    }),
  );
  assert.match(read(bad), /Bilinmeyen sıralama: “winrat”\. winrate mı demek istedin\?/);
  for (const m of [page1, page2, bad]) {
    for (const e of m.embeds as { title?: string; description?: string }[]) {
      assert.ok((e.title ?? '').length <= 256 && (e.description ?? '').length <= 4096);
    }
  }
});

test("a server's primary language reaches the bot as guild_locale: /subscribe there stores it for alerts", async () => {
  // The fake's guild language (preferred_locale, guild_locale) defaults to en-US, as a new server's does.
  const korean = { id: '1100000000000000001', channels: [{ id: '1100000000000000002' }], locale: 'ko' };
  h.fake.addGuild(korean);
  const set = await publicAnswer(
    await h.fake.sendCommand({
      name: 'subscribe',
      channelId: korean.channels[0]!.id,
      user: MANAGER,
      memberPermissions: MANAGER_PERMISSIONS,
      locale: 'en-US',
      options: [],
    }),
  );
  assert.equal(await h.app.store.languages.get('discord', korean.channels[0]!.id), 'ko');
  assert.equal(embedOf(set).title, 'Alerts on', 'the answer is in the admin’s language');
  // A server left at its default keeps English for alerts, whatever the admin's own language.
  const channelId = h.channels[3]!;
  await publicAnswer(
    await h.fake.sendCommand({
      name: 'subscribe',
      channelId,
      user: MANAGER,
      memberPermissions: MANAGER_PERMISSIONS,
      locale: 'ko',
      options: [],
    }),
  );
  assert.equal(await h.app.store.languages.get('discord', channelId), 'en');
});
