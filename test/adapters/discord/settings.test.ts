// /settings on Discord, through discord.js and the fake: buttons edit the panel in place, values come by modal.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeMessage, InteractionHandle } from '../../fakes/discord/index.ts';
import {
  embedOf,
  MANAGER,
  MANAGER_PERMISSIONS,
  MEMBER,
  privateAnswer,
  publicAnswer,
  startHarness,
  type Harness,
} from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const admin = { user: MANAGER, memberPermissions: MANAGER_PERMISSIONS };

function button(m: FakeMessage, label: string): string {
  const all = m.components.flatMap((r) => (r as { components: { label: string; custom_id?: string }[] }).components);
  const b = all.find((x) => x.label.startsWith(label) && x.custom_id);
  assert.ok(b, `no '${label}' button among ${all.map((x) => x.label).join(', ')}`);
  return b.custom_id!;
}

/** Clicks and waits until the panel was edited in place once more. */
async function click(m: FakeMessage, label: string, who = admin): Promise<FakeMessage> {
  const edits = h.fake.message(m.id)!.edits;
  const c = await h.fake.clickButton({ customId: button(m, label), message: m, channelId: m.channel_id, ...who });
  await c.waitFor((x) => (x.original?.edits ?? 0) > edits, 4000);
  return h.fake.message(m.id)!;
}

async function openPanel(channelId: string): Promise<FakeMessage> {
  const i = await h.fake.sendCommand({ name: 'settings', channelId, options: [], ...admin });
  return publicAnswer(i);
}

const subOf = (channelId: string) => h.app.store.subscriptions.get(`discord:${channelId}`);

test('an admin sets a preset, a number by modal and a chain toggle; the panel edits itself in place', async () => {
  const channel = h.channels[0]!;
  let panel = await openPanel(channel);
  assert.match(embedOf(panel).description!, /Alerts: off/);
  panel = await click(panel, 'Presets');
  panel = await click(panel, 'Only the best KOLs');
  assert.match(embedOf(panel).description!, /90/);
  panel = await click(panel, 'Apply');
  assert.equal((await subOf(channel))?.filters.minKolScore, 90);
  panel = await click(panel, 'Filters');

  const press = await h.fake.clickButton({ customId: button(panel, 'Token score'), message: panel, ...admin });
  await press.waitFor('callback');
  assert.deepEqual(
    press.callbacks.map((c) => c.type),
    [9],
    'the modal is the first answer',
  );
  const field = (press.modal!['components'] as { components: { value?: string; label: string }[] }[])[0]!
    .components[0]!;
  assert.equal(press.modal!['title'], 'Token score');
  assert.equal(field.value, '60', 'the current value is filled in');
  const edits = panel.edits;
  const submit = await h.fake.submitModal(press, { value: '85' });
  await submit.waitFor((x) => (x.original?.edits ?? 0) > edits, 4000);
  assert.deepEqual(
    submit.callbacks.map((c) => c.type),
    [6],
  );
  panel = h.fake.message(panel.id)!;
  assert.match(embedOf(panel).description!, /Token score at least 85/);
  assert.equal((await subOf(channel))?.filters.minTokenScore, 85);

  panel = await click(panel, '« Back');
  panel = await click(panel, 'Chains');
  panel = await click(panel, '✅ Base');
  assert.deepEqual((await subOf(channel))?.filters.chains, ['solana', 'aptos', 'bsc', 'sui']);
  assert.match(button(panel, '▫️ Base'), /^a:settings:/);
  assert.equal(h.fake.channelMessages(channel).length, 0, 'no message besides the panel');
});

test("a member's press opens no modal and changes nothing; a bad number is refused privately with an example", async () => {
  const channel = h.channels[1]!;
  let panel = await openPanel(channel);
  panel = await click(panel, 'Alerts');
  panel = await click(panel, 'Turn alerts on');
  panel = await click(panel, '« Back');
  panel = await click(panel, 'Filters');
  const before = await subOf(channel);

  const denied = await h.fake.clickButton({ customId: button(panel, 'KOL score'), message: panel, user: MEMBER });
  const told = await privateAnswer(denied);
  assert.match(embedOf(told).description!, /Manage Channels|manage/i);
  assert.equal(denied.modal, undefined);

  const press = await h.fake.clickButton({ customId: button(panel, 'KOL score'), message: panel, ...admin });
  await press.waitFor('callback');
  const bad: InteractionHandle = await h.fake.submitModal(press, { value: '150' });
  await bad.waitFor((x) => x.followups.length > 0, 4000);
  const m = bad.followups[0]!;
  assert.equal(m.flags & 64, 64, 'only the admin sees it');
  assert.match(embedOf(m).description!, /150/);
  assert.match(embedOf(m).description!, /kol_score:\d+/);
  assert.deepEqual(await subOf(channel), before, 'nothing changed');
  assert.equal(h.fake.message(panel.id)!.deleted, false, 'the panel stays');
});
