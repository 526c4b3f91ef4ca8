// Every command, error and first button in each of the eight languages through the real discord.js
// client and the Discord fake (a server per language, its primary language set): accepted by the
// fake (its embed, field, button and size checks), in the language (no English left, not the English
// answer), pictures and buttons where English has them, upstream names intact, no pings. Lines a
// slash command cannot carry (an unknown command, an option the command does not have, a number
// outside its range) are the typed platforms' business and are left out here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toDiscordCommand } from '../../../src/adapters/discord/commands.ts';
import { argsFor, splitCommand } from '../../../src/core/parse.ts';
import { DISCORD_LOCALES, LOCALES, type Locale } from '../../../src/i18n/index.ts';
import { type DiscordPayload, TABLE_WIDTH } from '../../../src/views/render/discord.ts';
import { displayWidth } from '../../../src/views/text.ts';
import { snowflake, type FakeMessage, type InteractionHandle } from '../../fakes/discord/index.ts';
import {
  MANAGER,
  MANAGER_PERMISSIONS,
  MEMBER,
  shown,
  startHarness,
  type Harness,
  until,
} from '../../adapters/discord/harness.ts';
import { assertDiscordLimits } from '../../views/render/helpers.ts';
import { englishLeft, OTHER_LOCALES, script, type Step } from './script.ts';

const NEVER = '0 0 1 1 *';

interface Embed {
  title?: string;
  description?: string;
  fields?: { name: string; value: string }[];
  footer?: { text: string };
  author?: { name: string };
}
interface Button {
  type: number;
  label?: string;
  custom_id?: string;
  url?: string;
}
const buttons = (m: FakeMessage): Button[] =>
  (m.components as { components?: Button[] }[]).flatMap((row) => row.components ?? []).filter((b) => b.type === 2);
const pressable = (m: FakeMessage) => buttons(m).filter((b) => b.custom_id !== undefined);

/** The lines of the code blocks (tables): they must fit the embed's width in every language. */
const tableLines = (ms: readonly FakeMessage[]): string[] =>
  ms.flatMap((m) =>
    [m.content, ...(m.embeds as Embed[]).flatMap((e) => [e.description ?? '', ...(e.fields ?? []).map((f) => f.value)])]
      .flatMap((text) => [...text.matchAll(/```[a-z]*\n?([\s\S]*?)```/g)].map((x) => x[1]!))
      .flatMap((block) => block.split('\n')),
  );

/** What the reader sees: markdown without code spans and links' targets, escapes removed, button labels. */
function visible(m: FakeMessage): string {
  const parts = [
    m.content,
    ...(m.embeds as Embed[]).flatMap((e) => [
      e.author?.name ?? '',
      e.title ?? '',
      e.description ?? '',
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
      e.footer?.text ?? '',
    ]),
    ...buttons(m).map((b) => b.label ?? ''),
  ];
  return shown(
    parts
      .join('\n')
      .replace(/```[\s\S]*?```|``[^`]*``|`[^`]*`/g, ' ')
      .replace(/\[([^\]]*)\]\((<)?https?:\/\/[^)\s]*(>)?\)/g, '$1'),
  );
}

/** The interaction's options for a typed line, or undefined when a slash command could not carry it. */
function optionsFor(h: Harness, line: string): { name: string; options: unknown[] } | undefined {
  const split = splitCommand(line);
  const command = split && h.app.dispatcher.commands.get(split.name);
  if (!command) return undefined;
  let raw: Record<string, unknown>;
  try {
    raw = argsFor(command, split.args);
  } catch {
    return undefined; // an option the command does not have, or words it has no place for
  }
  const def = toDiscordCommand(command);
  const options: unknown[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const o = def.options.find((x) => x.name === key);
    if (!o) return undefined;
    const text = String(value);
    if (o.type === 4 || o.type === 10) {
      const n = Number(text);
      if (!Number.isFinite(n) || (o.type === 4 && !Number.isInteger(n))) return undefined;
      if ((o.min_value !== undefined && n < o.min_value) || (o.max_value !== undefined && n > o.max_value))
        return undefined;
      options.push({ name: key, type: o.type, value: n });
    } else if (o.type === 5) options.push({ name: key, type: 5, value: /^(yes|true|1|on)$/i.test(text) });
    else {
      if (o.choices && !o.choices.some((c) => c.value === text)) return undefined;
      options.push({ name: key, type: o.type, value: text });
    }
  }
  for (const o of def.options) if (o.required && !(o.name in raw)) return undefined;
  return { name: split.name, options };
}

/** Done: an answer in place (public or private), or the deferral replaced by a private follow-up. */
const answered = (x: InteractionHandle): boolean =>
  (x.callbacks[0]?.type === 4 && x.original !== undefined) ||
  x.followups.length > 0 ||
  (x.original !== undefined && !x.original.deleted && (x.original.content !== '' || x.original.embeds.length > 0));
const messagesOf = (x: InteractionHandle): FakeMessage[] => [
  ...(x.original && !x.original.deleted ? [x.original] : []),
  ...x.followups,
];

interface Answer {
  readonly step: Step;
  readonly handle: InteractionHandle;
  shown: string;
  pictures: number;
  buttons: number[];
  pressed?: string;
}

async function run(h: Harness, locale: Locale, steps: readonly Step[]): Promise<Answer[]> {
  const discordLocale = DISCORD_LOCALES[locale][0]!;
  const guild = { id: snowflake(), channels: [{ id: snowflake() }, { id: snowflake() }], locale: discordLocale };
  h.fake.addGuild(guild);
  const [admins, members] = guild.channels.map((c) => c.id) as [string, string];
  const answers: Answer[] = [];
  const ask = async (step: Step): Promise<void> => {
    const o = optionsFor(h, step.line)!;
    if (step.fault) h.app.sandbox!.setFaults(step.fault);
    try {
      const handle = await h.fake.sendCommand({
        ...o,
        channelId: step.admin ? admins : members,
        locale: discordLocale,
        ...(step.admin ? { user: MANAGER, memberPermissions: MANAGER_PERMISSIONS } : { user: MEMBER }),
      } as never);
      await handle.waitFor(answered);
      answers.push({ step, handle, shown: '', pictures: 0, buttons: [] });
    } finally {
      if (step.fault) h.app.sandbox!.clearFaults();
    }
  };
  for (const step of steps) await ask(step);
  for (const a of answers) {
    const ms = messagesOf(a.handle);
    a.shown = ms.map(visible).join('\n');
    a.pictures = ms.reduce((n, m) => n + m.attachments.length, 0);
    a.buttons = ms.map((m) => pressable(m).length);
  }
  // The first button of every answer that has one, pressed by the asker in the asker's locale.
  for (const a of answers) {
    const m = messagesOf(a.handle).find((x) => pressable(x).length > 0);
    if (!m) continue;
    const seen = h.fake.channelMessages(m.channel_id).length;
    const edits = m.edits;
    const click = await h.fake.clickButton({
      customId: pressable(m)[0]!.custom_id!,
      message: m,
      locale: discordLocale,
      ...(a.step.admin ? { user: MANAGER, memberPermissions: MANAGER_PERMISSIONS } : { user: MEMBER }),
    } as never);
    // A press answers by editing the message, by a follow-up, in the channel, or (Call card) with a
    // reply of its own only the presser sees.
    await click.waitFor(
      (x) =>
        (x.original !== undefined && !x.original.deleted) ||
        x.followups.length > 0 ||
        (h.fake.message(m.id)?.edits ?? 0) > edits ||
        h.fake.channelMessages(m.channel_id).length > seen,
      8000,
    );
    a.pressed = [
      ...(click.original && !click.original.deleted ? [visible(click.original)] : []),
      ...click.followups.map(visible),
      ...((h.fake.message(m.id)?.edits ?? 0) > edits ? [visible(h.fake.message(m.id)!)] : []),
      ...h.fake.channelMessages(m.channel_id).slice(seen).map(visible),
    ].join('\n');
  }
  return answers;
}

/** The limits the English tests check on a rendered message, here on what the fake received. */
function assertEmbedLimits(m: FakeMessage, what: string): void {
  try {
    assertDiscordLimits(m as unknown as DiscordPayload);
  } catch (err) {
    assert.fail(`${what}: ${(err as Error).message}`);
  }
}

test('every command, error and first button in every language, through discord.js and the Discord fake', async () => {
  const h = await startHarness();
  try {
    const steps = script(h.app.sandbox!, h.app.dispatcher.commands).filter((s) => optionsFor(h, s.line));
    assert.ok(steps.length >= 90, `only ${steps.length} steps a slash command can carry`);
    const english = await run(h, 'en', steps);
    for (const a of english) assert.ok(a.shown.length > 10, `en ${a.step.line} answered`);
    const tables = english.filter((a) => tableLines(messagesOf(a.handle)).length > 0);
    assert.ok(tables.length >= 10, `tables in code blocks (${tables.length})`);
    assert.ok(english.filter((a) => a.pictures > 0).length >= 10, 'English answers carry pictures');
    assert.ok(english.filter((a) => a.pressed).length >= 20, 'many answers have a button to press');
    for (const locale of OTHER_LOCALES) {
      const sent = h.fake.requests.length;
      const answers = await run(h, locale, steps);
      for (const [i, a] of answers.entries()) {
        const en = english[i]!;
        const what = `${locale} ${a.step.line}`;
        assert.notEqual(a.shown, en.shown, `${what}: not the English answer`);
        assert.deepEqual(englishLeft(a.shown, h.app.sandbox!, locale), [], what);
        assert.equal(a.pictures > 0, en.pictures > 0, `${what}: a picture where English has one`);
        assert.deepEqual(a.buttons, en.buttons, `${what}: the same buttons`);
        for (const m of messagesOf(a.handle)) {
          assertEmbedLimits(m, what);
        }
        for (const line of tableLines(messagesOf(a.handle)))
          assert.ok(displayWidth(line) <= TABLE_WIDTH, `${what}: a table line wider than ${TABLE_WIDTH}: ${line}`);
        for (const name of a.step.intact ?? []) assert.ok(a.shown.includes(name), `${what}: ${name} as written`);
        if (en.pressed) {
          assert.ok(a.pressed, `${what}: its first button answers`);
          assert.deepEqual(englishLeft(a.pressed, h.app.sandbox!, locale), [], `${what}: after the press`);
          assert.notEqual(a.pressed, en.pressed, `${what}: the press answers in the language`);
        }
      }
      // The fake refuses what Discord refuses (embed sizes, fields, components, late answers): nothing was.
      // A 429 is timing, not content (on a loaded machine discord.js's window and the fake's can
      // disagree by a few ms); what counts there is that nothing was sent into a running 429.
      const refused = h.fake.requests.slice(sent).filter((q) => q.status >= 400 && q.status !== 429);
      assert.deepEqual(refused, [], `${locale}: every request accepted`);
      assert.deepEqual(h.fake.violations, [], `${locale}: nothing sent into a running 429`);
    }
  } finally {
    await h.close();
  }
});

test('an alert in each language reaches its server’s channel within the limits, and its first button answers there', async () => {
  const h = await startHarness();
  try {
    const sb = h.app.sandbox!;
    const kol = sb.data.kols.find((k) => k.follower_count >= 20_000)!;
    const channels: { locale: Locale; discordLocale: string; channelId: string }[] = [];
    for (const locale of LOCALES) {
      const discordLocale = DISCORD_LOCALES[locale][0]!;
      const guild = { id: snowflake(), channels: [{ id: snowflake() }], locale: discordLocale };
      h.fake.addGuild(guild);
      const channelId = guild.channels[0]!.id;
      const sub = await h.fake.sendCommand({
        name: 'subscribe',
        channelId,
        locale: 'en-US',
        user: MANAGER,
        memberPermissions: MANAGER_PERMISSIONS,
        options: [],
      });
      await sub.waitFor(answered);
      channels.push({ locale, discordLocale, channelId });
    }
    const watcher = h.app.startAlerts([h.adapter.sender], { cron: NEVER });
    await watcher.tick();
    const sent = h.fake.requests.length;
    sb.addTweets(1, { token: sb.data.tokens[30]!.id, kol: kol.id, tokenScore: 95, kolScore: 95 });
    await watcher.tick();
    const alertIn = (channelId: string) =>
      h.fake.channelMessages(channelId).find((m) => m.source === 'channel' && m.embeds.length > 0);
    await until(() => channels.every((c) => alertIn(c.channelId)), 'an alert in every channel');
    const english = visible(alertIn(channels[0]!.channelId)!);
    assert.match(english, / shilled by /);
    for (const c of channels) {
      const m = alertIn(c.channelId);
      assert.ok(m, `${c.locale}: an alert`);
      assertEmbedLimits(m, c.locale);
      assert.ok(visible(m).includes(kol.username), `${c.locale}: the KOL as written`);
      if (c.locale === 'en') continue;
      assert.notEqual(visible(m), english, `${c.locale}: not the English alert`);
      assert.deepEqual(englishLeft(visible(m), sb, c.locale), [], c.locale);
      const first = pressable(m)[0];
      assert.ok(first, `${c.locale}: the alert has a button`);
      const click = await h.fake.clickButton({
        customId: first.custom_id!,
        message: m,
        locale: c.discordLocale,
        user: MANAGER,
        memberPermissions: MANAGER_PERMISSIONS,
      } as never);
      await click.waitFor((x) => x.callbacks.length > 0 && (x.followups.length > 0 || x.original !== undefined));
      for (const f of [...click.followups, ...(click.original ? [click.original] : [])])
        assert.deepEqual(englishLeft(visible(f), sb, c.locale), [], `${c.locale}: after the press`);
    }
    assert.deepEqual(
      h.fake.requests.slice(sent).filter((q) => q.status >= 400),
      [],
      'every alert accepted',
    );
  } finally {
    await h.close();
  }
});

test("the bot's own refusals in every language: the flood notice (privately) and a forged button", async () => {
  const h = await startHarness({ userLimit: { count: 1, windowMs: 600_000 } });
  try {
    const said = new Map<Locale, { flood: string; forged: string }>();
    for (const locale of LOCALES) {
      const discordLocale = DISCORD_LOCALES[locale][0]!;
      const user = { id: snowflake(), username: `member-${locale}` };
      const channelId = h.channels[0]!;
      const first = await h.fake.sendCommand({ name: 'kols', channelId, locale: discordLocale, user, options: [] });
      await first.waitFor(answered);
      const list = messagesOf(first)[0]!;
      const second = await h.fake.sendCommand({ name: 'tweets', channelId, locale: discordLocale, user, options: [] });
      await second.waitFor(answered);
      const flood = messagesOf(second)[0]!;
      assert.equal(flood.flags & 64, 64, `${locale}: the notice is private`);
      // Another member's answer, and that member replaying the page button onto it (a modified client).
      const clicker = { id: snowflake(), username: `clicker-${locale}` };
      const other = await h.fake.sendCommand({
        name: 'help',
        channelId,
        locale: discordLocale,
        user: clicker,
        options: [],
      });
      await other.waitFor(answered);
      const click = await h.fake.clickButton({
        customId: pressable(list)[0]!.custom_id!,
        message: messagesOf(other)[0]!,
        locale: discordLocale,
        user: clicker,
        forged: true,
      } as never);
      await click.waitFor((x) => x.followups.length > 0);
      said.set(locale, { flood: visible(flood), forged: visible(click.followups[0]!) });
    }
    const en = said.get('en')!;
    assert.match(en.flood, /You're sending commands quickly/);
    assert.match(en.forged, /This button does not belong to this message\./);
    for (const locale of OTHER_LOCALES) {
      const { flood, forged } = said.get(locale)!;
      assert.notEqual(flood, en.flood, locale);
      assert.notEqual(forged, en.forged, locale);
      assert.deepEqual(englishLeft(`${flood}\n${forged}`, h.app.sandbox!, locale), [], locale);
    }
  } finally {
    await h.close();
  }
});
