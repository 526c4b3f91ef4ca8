import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PermissionFlagsBits } from 'discord.js';
import {
  toDiscordCommands,
  toSlashCommands,
  TOKEN_CARD_COMMAND,
  type DiscordCommand,
} from '../../../src/adapters/discord/commands.ts';
import { deployCommands } from '../../../src/adapters/discord/deploy.ts';
import { CHAINS } from '../../../src/domain/chains.ts';
import type { OptionSpec } from '../../../src/core/options.ts';
import { loadCommands } from '../../../src/core/registry.ts';
import { CATALOGUES } from '../../../src/i18n/index.ts';
import { snowflake, startDiscordFake } from '../../fakes/discord/index.ts';

const registry = await loadCommands();
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TYPES = { string: 3, integer: 4, boolean: 5, number: 10 } as const;

/** What Discord counts toward a command's 4,000-character limit. */
function size(c: ReturnType<typeof toSlashCommands>[number]): number {
  return (
    c.name.length +
    c.description.length +
    c.options.reduce(
      (n, o) =>
        n +
        o.name.length +
        o.description.length +
        (o.choices ?? []).reduce((m, ch) => m + ch.name.length + ch.value.length, 0),
      0,
    )
  );
}

test('every registry command becomes a Discord definition that follows the neutral option specs', () => {
  const defs = toSlashCommands(registry);
  assert.deepEqual(
    defs.map((d) => d.name),
    [...registry.keys()],
  );
  for (const def of defs) {
    const command = registry.get(def.name)!;
    assert.ok(def.description.length >= 1 && def.description.length <= 100, `${def.name} description`);
    assert.ok(size(def) <= 4000, `${def.name} fits Discord's 4,000 characters`);
    assert.ok(def.options.length <= 25);
    const firstOptional = def.options.findIndex((o) => !o.required);
    assert.ok(
      firstOptional === -1 || def.options.slice(firstOptional).every((o) => !o.required),
      `${def.name}: required options first`,
    );
    const specs = command.options as Record<string, { spec: OptionSpec }>;
    const visible = Object.keys(specs).filter((n) => !specs[n]!.spec.internal);
    assert.deepEqual(
      new Set(def.options.map((o) => o.name)),
      new Set(visible),
      `${def.name}: every option but the buttons' own`,
    );
    for (const o of def.options) {
      const spec = specs[o.name]!.spec;
      // A role option is Discord's role picker (8): the member picks, Discord sends the id.
      assert.equal(o.type, spec.role ? 8 : TYPES[spec.type], `${def.name}.${o.name} type`);
      assert.equal(o.required, spec.required);
      assert.ok(o.description.length >= 1 && o.description.length <= 100);
      if (spec.autocomplete === 'kol') {
        assert.equal(o.autocomplete, true, `${def.name}.${o.name} autocompletes`);
        assert.equal(o.choices, undefined, 'autocomplete and choices exclude each other');
      }
      if (spec.list)
        assert.equal(o.choices, undefined, `${def.name}.${o.name} takes several values, so no fixed choice`);
      if (spec.choices && !spec.list)
        assert.deepEqual(
          o.choices?.map((c) => c.value),
          [...spec.choices],
        );
      if (spec.type === 'integer' || spec.type === 'number') {
        assert.equal(o.min_value, spec.min);
        assert.equal(o.max_value, spec.max);
      } else {
        assert.equal(o.min_value, undefined);
      }
    }
    const manage = PermissionFlagsBits.ManageChannels.toString();
    assert.equal(
      def.default_member_permissions,
      command.requires === 'manage' ? manage : null,
      `${def.name} permissions`,
    );
    if (command.personal) {
      assert.deepEqual(
        [def.integration_types, def.contexts],
        [
          [0, 1],
          [0, 1],
        ],
        `${def.name}: in servers, and in the bot's DM for personal alerts`,
      );
    } else if (command.chatSettings) {
      assert.deepEqual(
        [def.integration_types, def.contexts],
        [[0], [0]],
        `${def.name}: server-installed, in servers only`,
      );
    } else {
      assert.deepEqual(
        [def.integration_types, def.contexts],
        [
          [0, 1],
          [0, 1, 2],
        ],
        `${def.name}: server and user install, servers, DMs and private channels`,
      );
    }
  }
});

test('user install: lookups everywhere, alert and admin commands server-only, plus the "Token card" message command', () => {
  const defs = toDiscordCommands(registry);
  const byName = new Map(defs.map((d) => [d.name, d]));
  for (const name of ['mute', 'autocard']) assert.deepEqual(byName.get(name)!.contexts, [0], name);
  // Personal alerts: a person subscribes, checks and unsubscribes in the bot's DM.
  for (const name of ['subscribe', 'unsubscribe', 'alerts']) assert.deepEqual(byName.get(name)!.contexts, [0, 1], name);
  for (const name of ['token', 'kol', 'tokens', 'help'])
    assert.deepEqual(byName.get(name)!.integration_types, [0, 1], name);
  const card = byName.get(TOKEN_CARD_COMMAND)!;
  assert.deepEqual(card, {
    name: 'Token card',
    // Menus show the name in the member's language; the handler matches the English name.
    name_localizations: {
      'en-US': 'Token card',
      'en-GB': 'Token card',
      'zh-CN': '代币卡片',
      ru: 'Карточка токена',
      'es-ES': 'Ficha del token',
      'es-419': 'Ficha del token',
      'pt-BR': 'Card do token',
      tr: 'Token kartı',
      vi: 'Thẻ token',
      ko: '토큰 카드',
    },
    type: 3,
    default_member_permissions: null,
    contexts: [0, 1, 2],
    integration_types: [0, 1],
    nsfw: false,
  });
  assert.equal(defs.at(-1), card, 'message commands after the slash commands');
});

test('concrete anchors: /token takes an address and an optional chain choice; /kol autocompletes; /subscribe is for managers', () => {
  const defs = new Map(toSlashCommands(registry).map((d) => [d.name, d]));
  const token = defs.get('token')!;
  assert.deepEqual(
    token.options.map((o) => [o.name, o.type, o.required]),
    [
      ['address', 3, true],
      ['chain', 3, false],
    ],
  );
  assert.deepEqual(
    token.options[1]!.choices,
    CHAINS.map((c) => ({ name: c, value: c })),
  );
  const { description_localizations: kolTexts, ...kol } = defs.get('kol')!.options[0]!;
  assert.deepEqual(kol, {
    type: 3,
    name: 'kol',
    description: 'The KOL: @username, username or numeric X id',
    required: true,
    autocomplete: true,
  });
  assert.equal(kolTexts?.['ru'], 'KOL: @username, username или числовой id в X');
  assert.equal(defs.get('subscribe')!.default_member_permissions, '16');
  assert.equal(defs.get('token')!.default_member_permissions, null);
  const limit = defs.get('kols')!.options.find((o) => o.name === 'limit')!;
  assert.deepEqual([limit.type, limit.min_value, limit.max_value], [4, 1, 25]);
});

test('command descriptions are localised for every mapped Discord locale from the catalogue; names stay English', () => {
  // Message commands (type 3) have no description to localise.
  const defs = toDiscordCommands(registry).filter((d): d is DiscordCommand => !('type' in d && d.type === 3));
  for (const def of defs) {
    const l = def.description_localizations;
    assert.deepEqual(
      Object.keys(l).sort(),
      ['en-GB', 'en-US', 'es-419', 'es-ES', 'ko', 'pt-BR', 'ru', 'tr', 'vi', 'zh-CN'],
      def.name,
    );
    assert.equal(l['en-US'], def.description);
    for (const text of Object.values(l)) assert.ok(text.length >= 1 && text.length <= 100, `${def.name}: ${text}`);
  }
  const token = defs.find((d) => d.name === 'token')!;
  assert.equal(
    token.description_localizations['zh-CN'],
    '代币卡片（按 CA、链接、$代号或名称）：市值、流动性、提及、评分、推文',
  );
  assert.equal(token.description_localizations['es-419'], token.description_localizations['es-ES']);
  assert.match(token.description_localizations['ru']!, /^Карточка токена/);
  // Every option is localised from the catalogue too.
  const code = defs.find((d) => d.name === 'language')!.options.find((o) => o.name === 'code')!;
  assert.equal(code.description_localizations?.['ko'], '언어 코드 (en, zh, ru, es, pt-BR, tr, vi, ko) 또는 auto');
  assert.equal(code.description_localizations?.['en-US'], code.description);
  assert.equal(
    token.options.find((o) => o.name === 'address')!.description_localizations?.['zh-CN'],
    '代币地址（CA）、浏览器或交易链接、$SYMBOL 或名称',
  );
  for (const def of defs)
    for (const o of def.options ?? []) {
      const l = (o as { description_localizations?: Record<string, string> }).description_localizations;
      assert.deepEqual(
        Object.keys(l ?? {}).sort(),
        Object.keys(def.description_localizations).sort(),
        `/${def.name} ${o.name}`,
      );
    }
});

test('deployCommands registers exactly the generated definitions; a second deploy keeps the command ids', async (t) => {
  const fake = await startDiscordFake();
  t.after(() => fake.close());
  const r = await deployCommands({
    token: fake.token,
    applicationId: fake.applicationId,
    apiBase: fake.apiBase,
    registry,
  });
  assert.equal(r.scope, 'global');
  const stored = fake.registeredCommands();
  const sent = toDiscordCommands(registry);
  assert.equal(stored.length, sent.length);
  for (const [i, def] of sent.entries()) {
    const s = stored[i]!;
    for (const key of Object.keys(def) as (keyof typeof def)[])
      assert.deepEqual(s[key], def[key], `${def.name}.${key}`);
  }
  const ids = stored.map((c) => c.id);
  await deployCommands({ token: fake.token, applicationId: fake.applicationId, apiBase: fake.apiBase, registry });
  assert.deepEqual(
    fake.registeredCommands().map((c) => c.id),
    ids,
  );
  assert.ok(
    fake.requests.every((q) => q.route.includes('/commands')),
    'nothing but the registration',
  );
});

test('npm run deploy-commands registers to DISCORD_GUILD_ID when set, without printing the token', async (t) => {
  const guild = snowflake();
  const fake = await startDiscordFake({ guilds: [{ id: guild, channels: [{ id: snowflake() }] }] });
  t.after(() => fake.close());
  const env = {
    PATH: process.env['PATH'] ?? '',
    DISCORD_TOKEN: fake.token,
    DISCORD_APPLICATION_ID: fake.applicationId,
    DISCORD_GUILD_ID: guild,
    DISCORD_API_BASE: fake.apiBase,
  };
  const child = spawn(process.execPath, ['scripts/deploy-commands.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, out);
  assert.match(
    out,
    new RegExp(
      `Registered ${registry.size + 2} commands guild ${guild}: .*/token.* and the message commands "Record call", "Token card"`,
    ),
  );
  assert.ok(!out.includes(fake.token), 'the token is not printed');
  assert.deepEqual(
    fake.registeredCommands(guild).map((c) => c.name),
    [...registry.keys(), 'Record call', 'Token card'],
  );
  assert.deepEqual(fake.registeredCommands(), [], 'nothing global');
});

test('deploy-commands without Discord settings explains what is missing', async () => {
  const child = spawn(process.execPath, ['scripts/deploy-commands.ts'], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 2);
  assert.match(err, /DISCORD_TOKEN and DISCORD_APPLICATION_ID/);
});

/** A bulk overwrite of the global commands, as a bot sends it, straight to the fake. */
const putCommands = (fake: Awaited<ReturnType<typeof startDiscordFake>>, list: unknown[]) =>
  fetch(`${fake.apiBase}/v10/applications/${fake.applicationId}/commands`, {
    method: 'PUT',
    headers: { authorization: `Bot ${fake.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(list),
  });

test('the Discord fake refuses localised names Discord refuses: unknown locales, spaces in slash names, menu names over 32', async (t) => {
  const fake = await startDiscordFake();
  t.after(() => fake.close());
  const put = (list: unknown[]) => putCommands(fake, list);
  const slash = (name_localizations: Record<string, string>) => ({
    name: 'token',
    description: 'Token card',
    type: 1,
    name_localizations,
  });
  const menu = (name_localizations: Record<string, string>) => ({ name: 'Token card', type: 3, name_localizations });
  for (const bad of [
    slash({ xx: 'token' }),
    slash({ ru: 'карточка токена' }),
    slash({ de: 'Token' }),
    menu({ ru: 'К'.repeat(33) }),
    menu({ ko: ' 토큰 카드' }),
  ]) {
    const r = await put([bad]);
    assert.equal(r.status, 400, JSON.stringify(bad));
    assert.match(JSON.stringify(await r.json()), /LOCALE_INVALID|APPLICATION_COMMAND_INVALID_NAME/);
  }
  const ok = await put([slash({ ru: 'токен' }), menu({ ru: 'Карточка токена', 'zh-CN': '代币卡片' })]);
  assert.equal(ok.status, 200);
  assert.deepEqual(
    fake.registeredCommands().map((c) => c['name_localizations']),
    [{ ru: 'токен' }, { ru: 'Карточка токена', 'zh-CN': '代币卡片' }],
  );
});

test("fixed choices show in the member's language in Discord's picker; the value sent stays the English word", () => {
  const defs = toDiscordCommands(registry).filter((d): d is DiscordCommand => !('type' in d && d.type === 3));
  const sort = defs.find((d) => d.name === 'kols')!.options.find((o) => o.name === 'sort')!;
  const winrate = sort.choices!.find((c) => c.value === 'winrate')!;
  assert.equal(winrate.name, 'winrate', 'the English name is the value typed on Telegram and in /help');
  assert.equal(winrate.name_localizations?.['en-US'], CATALOGUES.en.choices.winrate);
  assert.equal(winrate.name_localizations?.ru, CATALOGUES.ru.choices.winrate);
  assert.notEqual(winrate.name_localizations?.ru, winrate.name);
  let labelled = 0;
  for (const def of defs)
    for (const o of def.options)
      for (const c of o.choices ?? []) {
        // Chains and time windows are names and syntax: no label of their own.
        if (!c.name_localizations) {
          assert.match(
            c.value,
            /^(solana|bsc|base|sui|aptos|\d+[mhd])$/,
            `/${def.name} ${o.name}:${c.value} unlabelled`,
          );
          continue;
        }
        labelled++;
        assert.deepEqual(
          Object.keys(c.name_localizations).sort(),
          Object.keys(def.description_localizations).sort(),
          `/${def.name} ${o.name}:${c.value}`,
        );
        for (const name of Object.values(c.name_localizations)) assert.ok(name.length >= 1 && name.length <= 100);
      }
  assert.ok(labelled >= 60, `${labelled} labelled choices`);
});

test('the Discord fake refuses choices Discord refuses: over 25, names over 100, unknown locales in their names', async (t) => {
  const fake = await startDiscordFake();
  t.after(() => fake.close());
  const put = (choices: unknown[]) =>
    putCommands(fake, [
      {
        name: 'kols',
        description: 'KOLs',
        type: 1,
        options: [{ name: 'sort', description: 'Sort', type: 3, choices }],
      },
    ]);
  const many = Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `c${i}` }));
  for (const bad of [
    many,
    [{ name: 'x'.repeat(101), value: 'x' }],
    [{ name: 'winrate', value: 'winrate', name_localizations: { xx: 'win' } }],
    [{ name: 'winrate', value: 'winrate', name_localizations: { ru: 'в'.repeat(101) } }],
  ]) {
    const r = await put(bad);
    assert.equal(r.status, 400, JSON.stringify(bad).slice(0, 80));
  }
  const ok = await put([{ name: 'winrate', value: 'winrate', name_localizations: { ru: 'винрейт' } }]);
  assert.equal(ok.status, 200);
});
