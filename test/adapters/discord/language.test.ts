// The caller's Discord locale and a channel's /language, through the real discord.js client and the fake.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeMessage } from '../../fakes/discord/index.ts';
import { MANAGER, MANAGER_PERMISSIONS, MEMBER, privateAnswer, publicAnswer, shown, startHarness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const str = (name: string, value: string) => ({ name, type: 3, value });
const read = (m: FakeMessage): string => shown([m.content, ...m.embeds.map((e) => (e as { description?: string }).description ?? '')].join('\n'));

test("/help answers in the member's Discord locale", async () => {
  const zh = await publicAnswer(await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]!, locale: 'zh-CN', options: [] }));
  assert.match(read(zh), /代币卡片（按 CA、链接、\$代号或名称）：市值、流动性/);
  const es = await publicAnswer(await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]!, locale: 'es-419', options: [] }));
  assert.match(read(es), /Ficha del token por CA/);
  const en = await publicAnswer(await h.fake.sendCommand({ name: 'help', channelId: h.channels[0]!, locale: 'en-GB', options: [] }));
  assert.match(read(en), /Token card by address, link/);
});

test('a channel manager sets the channel language; members then read it whatever their locale', async () => {
  const channelId = h.channels[1]!;
  const denied = await privateAnswer(await h.fake.sendCommand({ name: 'language', channelId, user: MEMBER, locale: 'en-US', options: [str('code', 'ru')] }));
  assert.match(read(denied), /Only members who can manage this channel can change its language\./);

  const set = await publicAnswer(
    await h.fake.sendCommand({ name: 'language', channelId, user: MANAGER, memberPermissions: MANAGER_PERMISSIONS, locale: 'en-US', options: [str('code', 'ru')] }),
  );
  assert.match(read(set), /теперь в этом чате я говорю по-русски/);
  const help = await publicAnswer(await h.fake.sendCommand({ name: 'help', channelId, user: MEMBER, locale: 'ko', options: [] }));
  assert.match(read(help), /Карточка токена/);
  // The next channel keeps following each member.
  const other = await publicAnswer(await h.fake.sendCommand({ name: 'help', channelId: h.channels[2]!, user: MEMBER, locale: 'ko', options: [] }));
  assert.match(read(other), /토큰 카드/);
});
