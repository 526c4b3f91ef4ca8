// The settings panel's presses on Discord, through discord.js and the fake, on a moved clock: an admin going
// through the panel at human speed is never told to slow down; a script pressing in a loop is stopped; a press
// that asks the upstream (a test alert reads a sample of the feed) still counts as a command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PANEL_LIMIT, DEFAULT_USER_LIMIT } from '../../../src/core/dispatch.ts';
import type { FakeMessage, InteractionHandle } from '../../fakes/discord/index.ts';
import { MANAGER, MANAGER_PERMISSIONS, publicAnswer, startHarness } from './harness.ts';

const admin = { user: MANAGER, memberPermissions: MANAGER_PERMISSIONS };

function button(m: FakeMessage, label: string): string {
  const all = m.components.flatMap((r) => (r as { components: { label?: string; custom_id?: string }[] }).components);
  const b = all.find((x) => x.label?.startsWith(label) && x.custom_id);
  assert.ok(b, `no '${label}' button among ${all.map((x) => x.label).join(', ')}`);
  return b.custom_id!;
}

/** What a press or command told its user alone (an ephemeral reply or follow-up). */
async function told(i: InteractionHandle): Promise<string> {
  await i.waitFor((x) => x.followups.length > 0 || (x.callbacks[0]?.type === 4 && x.original !== undefined));
  const m = i.followups[0] ?? i.original!;
  assert.equal(m.flags & 64, 64, 'only the user sees it');
  return JSON.stringify([m.content, m.embeds]);
}

/** Waits until a command has its final answer. */
async function settled(i: InteractionHandle): Promise<void> {
  await i.waitFor((x) => {
    const first = x.callbacks[0]?.type;
    if (first === undefined) return false;
    return first !== 5 || (x.original?.edits ?? 0) > 0 || x.followups.length > 0;
  });
}

test('Discord: panel presses every 1.5 s are never refused; a flood of presses is; a press asking the upstream counts as a command', async (t) => {
  let now = Date.UTC(2026, 0, 1);
  const h = await startHarness({ userLimit: DEFAULT_USER_LIMIT, clock: () => now });
  t.after(() => h.close());
  const channelId = h.channels[0]!;
  const fake = h.fake;
  const click = async (label: string) => {
    const m = fake.message(panel.id)!;
    const edits = m.edits;
    const c = await fake.clickButton({ customId: button(m, label), message: m, channelId, ...admin });
    await c.waitFor((x) => (x.original?.edits ?? 0) > edits || x.followups.length > 0);
    return c;
  };
  const panel = await publicAnswer(await fake.sendCommand({ name: 'settings', channelId, options: [], ...admin }));

  // Forty presses, one every 1.5 s: a minute of going back and forth through the pages.
  for (let k = 0; k < 40; k++) {
    now += 1_500;
    const c = await click(k % 2 === 0 ? 'Filters' : '« Back');
    assert.equal(c.followups.length, 0, `press ${k + 1} answered privately: ${JSON.stringify(c.followups[0] ?? '')}`);
  }
  assert.match(JSON.stringify(fake.message(panel.id)!.embeds), /Settings/);

  // A loop pressing without pause: the panel's limit, then a short refusal to the presser alone.
  now += DEFAULT_PANEL_LIMIT.windowMs;
  for (let k = 0; k < DEFAULT_PANEL_LIMIT.count; k++) await click(k % 2 === 0 ? 'Filters' : '« Back');
  const edits = fake.message(panel.id)!.edits;
  const flood = await fake.clickButton({
    customId: button(fake.message(panel.id)!, 'Filters'),
    ...admin,
    message: fake.message(panel.id)!,
    channelId,
  });
  assert.match(await told(flood), /sending commands quickly/);
  assert.equal(fake.message(panel.id)!.edits, edits, 'the panel is not edited');

  // Commands used up: the panel still navigates and changes settings, but a test alert (a feed read) is a command.
  now += DEFAULT_PANEL_LIMIT.windowMs;
  for (let k = 0; k < DEFAULT_USER_LIMIT.count; k++)
    await settled(await fake.sendCommand({ name: 'help', channelId, options: [], ...admin }));
  await click('Alerts');
  assert.equal((await click('Turn alerts on')).followups.length, 0);
  assert.ok(
    await h.app.store.subscriptions.get(`discord:${channelId}`),
    'alerts on: a settings change, no upstream request',
  );
  const sent = fake.channelMessages(channelId).length;
  const test = await fake.clickButton({
    customId: button(fake.message(panel.id)!, 'Send a test alert'),
    ...admin,
    message: fake.message(panel.id)!,
    channelId,
  });
  assert.match(await told(test), /sending commands quickly/);
  assert.equal(fake.channelMessages(channelId).length, sent, 'no test alert');
});
