/**
 * The Discord adapter end to end: the real discord.js client against the
 * Discord fake, and the real core, store and sandbox upstream behind it.
 */
import assert from 'node:assert/strict';
import { PermissionFlagsBits } from 'discord.js';
import {
  createDiscordAdapter,
  type DiscordAdapter,
  type DiscordAdapterOptions,
} from '../../../src/adapters/discord/index.ts';
import { createApp, type App } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { silentLogger } from '../../../src/log.ts';
import { publishLedger } from '../../../src/store/publishes.ts';
import {
  DEFAULT_MEMBER_PERMISSIONS,
  snowflake,
  startDiscordFake,
  type DiscordFake,
  type DiscordFakeOptions,
  type FakeMessage,
  type InteractionHandle,
} from '../../fakes/discord/index.ts';
import { PATIENCE_MS } from '../../helpers/wait.ts';

export interface Harness {
  readonly fake: DiscordFake;
  readonly app: App;
  readonly adapter: DiscordAdapter;
  readonly guildId: string;
  /** Text channels of the guild. */
  readonly channels: readonly string[];
  close(): Promise<void>;
}

/** A member who may manage the channel (ManageChannels on top of the plain set). */
export const MANAGER_PERMISSIONS = (BigInt(DEFAULT_MEMBER_PERMISSIONS) | PermissionFlagsBits.ManageChannels).toString();
export const MANAGER = { id: '1000000000000000077', username: 'modmin' };
export const MEMBER = { id: '1000000000000000078', username: 'lurker' };

export async function startHarness(
  o: {
    fake?: DiscordFakeOptions;
    adapter?: Partial<DiscordAdapterOptions>;
    channelCount?: number;
    /** Commands per member per window; default practically unlimited. */
    userLimit?: { count: number; windowMs: number };
    /** The clock of the command limit and the lookup budget (cost tests move it); default the wall clock. */
    clock?: () => number;
    /** More configuration (OWNER_IDS, quotas). */
    env?: Readonly<Record<string, string>>;
    /** The clock of the sandbox's market caps (follow-up tests move it with the watcher's). */
    marketClock?: () => number;
  } = {},
): Promise<Harness> {
  const guildId = snowflake();
  const channels = Array.from({ length: o.channelCount ?? 4 }, () => snowflake());
  const fake = await startDiscordFake({
    guilds: [{ id: guildId, name: 'Radar HQ', channels: channels.map((id, i) => ({ id, name: `c${i}` })) }],
    ...o.fake,
  });
  const config = loadConfig({
    DISCORD_TOKEN: fake.token,
    DISCORD_APPLICATION_ID: fake.applicationId,
    DISCORD_API_BASE: fake.apiBase,
    STORE_URL: 'memory:',
    // Ticks only when a test asks: the cron would otherwise fire on every :00 and :30.
    WATCH_CRON: '0 0 1 1 *',
    LOG_LEVEL: 'silent',
    ...o.env,
  });
  const app = await createApp(config, silentLogger(), {
    sandboxLiveRate: 0,
    ...(o.marketClock ? { sandboxMarket: { clock: o.marketClock } } : {}),
    dispatcher: {
      userLimit: o.userLimit ?? { count: 10_000, windowMs: 1000 },
      // A test that sets the command limit gets the panel's real one too (settings-pace.test.ts).
      ...(o.userLimit ? {} : { panelLimit: { count: 10_000, windowMs: 1000 } }),
      ...(o.clock ? { now: o.clock } : {}),
    },
    ...(o.clock ? { autoCards: { now: o.clock } } : {}),
  });
  const adapter = createDiscordAdapter({
    token: config.discord!.token,
    applicationId: config.discord!.applicationId,
    apiBase: config.discord!.apiBase!,
    dispatcher: app.dispatcher,
    api: app.api,
    log: silentLogger(),
    subscriptions: app.store.subscriptions,
    publishes: publishLedger(app.store.watch),
    bans: app.store.owner,
    autoCards: app.autoCards,
    lookups: app.lookups,
    // The adapter's own default: a shorter budget turns answers into "too slow" on a loaded machine
    // (8 test files on 2 cores). The tests of the budget itself run out a hung upstream, not a slow one.
    commandBudgetMs: 10_000,
    stopGraceMs: 2000,
    ...o.adapter,
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await adapter.stop();
    await app.close();
    await fake.close();
  };
  try {
    await adapter.start();
  } catch (err) {
    await close();
    throw err;
  }
  return { fake, app, adapter, guildId, channels, close };
}

/** The shared wait (test/helpers/wait.ts), where these tests have always found it. */
export { until } from '../../helpers/wait.ts';

/** Every message must go out unable to ping anyone. */
export function assertNoPings(message: FakeMessage | undefined): void {
  assert.ok(message, 'a message exists');
  assert.deepEqual(message.allowed_mentions, { parse: [] }, `message ${message.id} has mentions disabled`);
}

/** A deferred command's public answer: @original filled in with real content. */
export async function publicAnswer(h: InteractionHandle, timeoutMs = PATIENCE_MS): Promise<FakeMessage> {
  await h.waitFor('original', timeoutMs);
  const m = h.original!;
  assert.equal(m.flags & EPHEMERAL, 0, 'the answer is public');
  return m;
}

/**
 * An error answer: only the user sees it. Either the reply itself is ephemeral
 * (refused before deferring), or an ephemeral follow-up came and the public
 * reply is gone.
 */
export async function privateAnswer(h: InteractionHandle, timeoutMs = PATIENCE_MS): Promise<FakeMessage> {
  await h.waitFor(
    (x) =>
      (x.callbacks[0]?.type === 4 && x.original !== undefined) ||
      (x.followups.length > 0 && x.original?.deleted === true),
    timeoutMs,
  );
  const m = h.callbacks[0]!.type === 4 ? h.original! : h.followups[0]!;
  assert.equal(m.flags & EPHEMERAL, EPHEMERAL, 'the error is ephemeral');
  if (m !== h.original)
    assert.deepEqual(h.original!.shown.filter(Boolean), [], 'the channel never saw the error, not even briefly');
  return m;
}

const EPHEMERAL = 64;

export function embedOf(m: FakeMessage): {
  title?: string;
  description?: string;
  color?: number;
  fields?: { name: string; value: string }[];
  footer?: { text: string };
} {
  const e = m.embeds[0];
  assert.ok(e, `message ${m.id} has an embed`);
  return e as ReturnType<typeof embedOf>;
}

/** Markdown as Discord shows it: escaping backslashes are not visible. */
export function shown(text: string): string {
  return text.replace(/\\([^\sA-Za-z0-9])/g, '$1');
}

/** A field's value as the user reads it. */
export function field(m: FakeMessage, name: string): string {
  const f = embedOf(m).fields?.find((x) => shown(x.name) === name);
  assert.ok(
    f,
    `embed has a '${name}' field (fields: ${embedOf(m)
      .fields?.map((x) => x.name)
      .join(', ')})`,
  );
  return shown(f.value);
}

/** "$1.23M" -> 1230000: read back what the user sees, to compare with the source data. */
export function parseUsd(text: string): number {
  const m = /^\$([\d,.]+)([KMBT])?$/.exec(text.trim());
  assert.ok(m, `'${text}' reads as a dollar amount`);
  const mult = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[m[2] as 'K'] ?? 1;
  return Number(m[1]!.replace(/,/g, '')) * mult;
}
