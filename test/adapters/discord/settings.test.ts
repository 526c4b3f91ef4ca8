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
  until,
  type Harness,
} from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const admin = { user: MANAGER, memberPermissions: MANAGER_PERMISSIONS };
const str = (name: string, value: string) => ({ name, type: 3, value });

/** The select menu on the panel, and the value (an action id) of its option labelled `label`. */
function option(m: FakeMessage, label: string): { customId: string; value: string } {
  const menus = m.components.flatMap(
    (r) =>
      (r as { components: { type: number; custom_id: string; options?: { label: string; value: string }[] }[] })
        .components,
  );
  for (const menu of menus.filter((c) => c.type === 3)) {
    const o = menu.options!.find((x) => x.label.endsWith(label));
    if (o) return { customId: menu.custom_id, value: o.value };
  }
  assert.fail(`no '${label}' option in a select menu`);
}

/** Picks in the panel's select menu and waits until the panel was edited. */
async function choose(m: FakeMessage, label: string): Promise<FakeMessage> {
  const edits = h.fake.message(m.id)!.edits;
  const { customId, value } = option(m, label);
  const c = await h.fake.chooseOption({ customId, values: [value], message: m, ...admin });
  await c.waitFor((x) => (x.original?.edits ?? 0) > edits);
  return h.fake.message(m.id)!;
}

/** Presses a value button and fills in its modal; waits until the panel was edited. */
async function fill(m: FakeMessage, label: string, value: string): Promise<FakeMessage> {
  const press = await h.fake.clickButton({ customId: button(m, label), message: m, ...admin });
  await press.waitFor('callback');
  const edits = h.fake.message(m.id)!.edits;
  const submit = await h.fake.submitModal(press, { value });
  await submit.waitFor((x) => (x.original?.edits ?? 0) > edits);
  return h.fake.message(m.id)!;
}

function button(m: FakeMessage, label: string): string {
  const all = m.components.flatMap((r) => (r as { components: { label?: string; custom_id?: string }[] }).components);
  const b = all.find((x) => x.label?.startsWith(label) && x.custom_id);
  assert.ok(b, `no '${label}' button among ${all.map((x) => x.label).join(', ')}`);
  return b.custom_id!;
}

/** Clicks and waits until the panel was edited in place once more. */
async function click(m: FakeMessage, label: string, who = admin): Promise<FakeMessage> {
  const edits = h.fake.message(m.id)!.edits;
  const c = await h.fake.clickButton({ customId: button(m, label), message: m, channelId: m.channel_id, ...who });
  await c.waitFor((x) => (x.original?.edits ?? 0) > edits);
  return h.fake.message(m.id)!;
}

async function openPanel(channelId: string): Promise<FakeMessage> {
  const i = await h.fake.sendCommand({ name: 'settings', channelId, options: [], ...admin });
  return publicAnswer(i);
}

const subOf = (channelId: string) => h.app.store.subscriptions.get(`discord:${channelId}`);

test('an admin sets a preset, numbers, a chain, a KOL list, quiet hours, a digest and the language by panel alone: as typed', async () => {
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
  await submit.waitFor((x) => (x.original?.edits ?? 0) > edits);
  assert.deepEqual(
    submit.callbacks.map((c) => c.type),
    [6],
  );
  panel = h.fake.message(panel.id)!;
  assert.match(embedOf(panel).description!, /Token score at least 85/);
  assert.equal((await subOf(channel))?.filters.minTokenScore, 85);

  panel = await click(panel, '« Back');
  panel = await click(panel, 'Chains');
  // Chains are a select menu: picking one toggles it.
  panel = await choose(panel, 'Base');
  assert.deepEqual((await subOf(channel))?.filters.chains, ['solana', 'aptos', 'bsc', 'sui']);
  assert.ok(option(panel, '▫️ Base'), 'the menu shows Base off');
  panel = await click(panel, '« Back');
  panel = await click(panel, 'KOLs');
  panel = await fill(panel, 'Never these KOLs', '@cobie, @Ansem');
  panel = await click(panel, '« Back');
  panel = await click(panel, 'Quiet hours');
  panel = await fill(panel, 'Quiet hours', '23:00-07:00');
  panel = await click(panel, '« Back');
  panel = await click(panel, 'Digest');
  panel = await click(panel, 'Daily');
  panel = await fill(panel, 'Time', '08:15');
  panel = await click(panel, '« Back');
  panel = await click(panel, 'Language');
  panel = await choose(panel, 'Español');
  assert.match(embedOf(panel).title!, /^Ajustes/, 'the panel speaks the new language at once');
  assert.equal(h.fake.channelMessages(channel).length, 0, 'no message besides the panel');

  // The same settings typed in another channel store the same subscription.
  const typed = h.channels[2]!;
  for (const [name, options] of [
    ['subscribe', [str('token_score', '60'), str('kol_score', '90'), str('followers', '50k')]],
    ['subscribe', [str('token_score', '85'), str('chains', 'solana,aptos,bsc,sui'), str('except', '@cobie,@ansem')]],
    ['alerts', [str('action', 'quiet'), str('duration', '23:00-07:00')]],
    ['digest', [str('period', 'daily'), str('at', '08:15')]],
  ] as const) {
    const i = await h.fake.sendCommand({ name, channelId: typed, options: [...options], ...admin });
    await publicAnswer(i);
  }
  const [byPanel, byTyping] = [await subOf(channel), await subOf(typed)];
  assert.deepEqual(byPanel?.filters, byTyping?.filters);
  assert.deepEqual(byPanel?.quiet, byTyping?.quiet);
  assert.deepEqual({ ...byPanel?.digest, since: 0 }, { ...byTyping?.digest, since: 0 });
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
  await bad.waitFor((x) => x.followups.length > 0);
  const m = bad.followups[0]!;
  assert.equal(m.flags & 64, 64, 'only the admin sees it');
  assert.match(embedOf(m).description!, /150/);
  assert.match(embedOf(m).description!, /kol_score:\d+/);
  assert.deepEqual(await subOf(channel), before, 'nothing changed');
  assert.equal(h.fake.message(panel.id)!.deleted, false, 'the panel stays');
});

test('two admins toggling different chains at the same moment both keep their chain, round after round', async () => {
  const channel = h.channels[3]!;
  const other = { user: { id: '1000000000000000079', username: 'comod' }, memberPermissions: MANAGER_PERMISSIONS };
  let panel = await openPanel(channel);
  panel = await click(panel, 'Alerts');
  panel = await click(panel, 'Turn alerts on');
  panel = await click(panel, '« Back');
  panel = await click(panel, 'Chains');
  const on = new Set(['solana', 'aptos', 'bsc', 'base', 'sui']);
  const labels: Record<string, string> = {
    solana: 'Solana',
    aptos: 'Aptos',
    bsc: 'BNB Chain',
    base: 'Base',
    sui: 'Sui',
  };
  const rounds = [
    ['base', 'sui'],
    ['base', 'aptos'],
    ['sui', 'solana'],
    ['bsc', 'aptos'],
    ['solana', 'base'],
  ] as const;
  for (const [a, b] of rounds) {
    const m = h.fake.message(panel.id)!;
    const edits = m.edits;
    const pick = (chain: string, who: typeof admin) => {
      const { customId, value } = option(m, labels[chain]!);
      return h.fake.chooseOption({ customId, values: [value], message: m, ...who });
    };
    const both = await Promise.all([pick(a, admin), pick(b, other)]);
    // Each press edits the panel once it has stored its change.
    await Promise.all(both.map((c) => c.waitFor('callback')));
    await until(() => h.fake.message(panel.id)!.edits >= edits + 2, 'both presses to edit the panel');
    for (const c of [a, b]) if (!on.delete(c)) on.add(c);
    const stored = (await subOf(channel))?.filters.chains ?? [];
    assert.deepEqual([...stored].sort(), [...on].sort(), `after toggling ${a} and ${b} at once`);
    panel = h.fake.message(panel.id)!;
  }
});
