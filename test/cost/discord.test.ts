/**
 * What one Discord user can cost the upstream per minute, through each entry
 * point and through all of them together, driven as hard as a user can (a new
 * query each time, so no cache helps) through discord.js against the fake. The
 * command limit and the lookup budget run on an injected clock; a minute is
 * covered by moving it. Each test prints its count and fails above docs/security.md.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { deployCommands } from '../../src/adapters/discord/deploy.ts';
import { DEFAULT_USER_LIMIT } from '../../src/core/dispatch.ts';
import { loadCommands } from '../../src/core/registry.ts';
import type { FakeUser, InteractionHandle } from '../fakes/discord/index.ts';
import { startHarness, until, type Harness } from '../adapters/discord/harness.ts';
import { readmeBound } from '../helpers/readme-bounds.ts';

const registry = await loadCommands();

interface Rig {
  readonly h: Harness;
  /** Moves the limiters' clock. */
  advance(ms: number): void;
  /** Upstream requests the sandbox has received so far. */
  upstream(): number;
}

async function rig(t: TestContext): Promise<Rig> {
  let now = Date.UTC(2026, 0, 1);
  const h = await startHarness({
    userLimit: DEFAULT_USER_LIMIT,
    clock: () => now,
    fake: { messageContentIntent: true },
    adapter: { messageContent: true },
  });
  t.after(() => h.close());
  await deployCommands({ token: h.fake.token, applicationId: h.fake.applicationId, apiBase: h.fake.apiBase, registry });
  return {
    h,
    advance: (ms) => {
      now += ms;
    },
    upstream: () => h.app.sandbox!.count(),
  };
}

/** Waits until an interaction has its final answer: an immediate reply, or a deferred one edited or followed up. */
async function settled(i: InteractionHandle): Promise<void> {
  await i.waitFor((x) => {
    const first = x.callbacks[0]?.type;
    if (first === undefined) return false;
    // 5: deferred, then edited in (a card) or deleted and followed up (a private error).
    return first !== 5 || (x.original?.edits ?? 0) > 0 || x.followups.length > 0;
  }, 8_000);
}

/** A different unknown EVM address each time: two chains to ask, and nothing cached. */
let serial = 0;
const freshEvm = () => `0x${(++serial).toString(16).padStart(40, 'c')}`;

/**
 * The costliest commands, each with a new argument: a list of 25 telling apart
 * the chains of repeated symbols, a name search on every chain, a KOL's facts.
 */
function costlyCommand(r: Rig, k: number) {
  const kols = r.h.app.sandbox!.data.kols;
  if (k % 3 === 0)
    return {
      name: 'tokens',
      options: [
        { name: 'limit', type: 4, value: 25 },
        { name: 'offset', type: 4, value: 25 * (k % 8) },
        { name: 'sort', type: 3, value: ['change1h', 'mentions'][k % 2]! },
      ],
    };
  return k % 3 === 1
    ? { name: 'kol', options: [{ name: 'kol', type: 3, value: kols[k % kols.length]!.username }] }
    : { name: 'token', options: [{ name: 'address', type: 3, value: `zz${k}q` }] };
}

/** As many of the costliest commands as one user can send now (the limit refuses the rest). */
async function slashBurst(r: Rig, user: FakeUser, channelId: string, from: number): Promise<void> {
  for (let k = 0; k < DEFAULT_USER_LIMIT.count + 5; k++)
    await settled(await r.h.fake.sendCommand({ ...costlyCommand(r, from + k), channelId, user }));
}

/** "Token card" on messages of five new addresses each, as often as one user can now. */
async function tokenCardBurst(r: Rig, user: FakeUser, channelId: string): Promise<void> {
  for (let k = 0; k < DEFAULT_USER_LIMIT.count + 5; k++) {
    const content = Array.from({ length: 5 }, freshEvm).join(' ');
    await settled(await r.h.fake.sendMessageCommand({ name: 'Token card', channelId, user, target: { content } }));
  }
}

async function autocompleteMinute(r: Rig, user: FakeUser, channelId: string): Promise<void> {
  for (let k = 0; k < 40; k++) {
    const ac = await r.h.fake.sendAutocomplete({
      name: 'token',
      channelId,
      user,
      options: [{ name: 'address', type: 3, value: `qq${k}zz`, focused: true }],
    });
    await ac.waitFor('callback');
  }
}

/** Automatic-card outcomes counted so far (every paste with an address records one: a card, or why not). */
function autocardOutcomes(r: Rig): number {
  return [...r.h.app.metrics.render().matchAll(/^kolradar_commands_total\{command="autocard",[^}]*\} (\d+)$/gm)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
}

async function autocardsMinute(r: Rig, user: FakeUser, channels: readonly string[]): Promise<void> {
  const before = autocardOutcomes(r);
  const count = 40;
  // Across every channel, so no chat's own cap is what stops it.
  for (let k = 0; k < count; k++)
    r.h.fake.postMessage({
      channelId: channels[k % channels.length]!,
      author: user,
      content: `${freshEvm()} ${freshEvm()}`,
    });
  await until(() => autocardOutcomes(r) - before >= count, 'every paste handled');
}

function report(t: TestContext, entry: string, made: number): void {
  const bound = readmeBound(entry);
  t.diagnostic(`${entry}: one user caused ${made} upstream requests in a minute (docs/security.md bound ${bound})`);
  assert.ok(made <= bound, `${entry}: ${made} upstream requests > ${bound}`);
}

const user = (n: number): FakeUser => ({
  id: `10000000000000005${String(n).padStart(2, '0')}`,
  username: `spender${n}`,
});

test('slash commands: the most upstream requests one user can cause per minute', { timeout: 120_000 }, async (t) => {
  const r = await rig(t);
  const before = r.upstream();
  // Two windows of the command limit fit in a minute: a burst at its start and one at its middle.
  await slashBurst(r, user(1), r.h.channels[0]!, 0);
  r.advance(DEFAULT_USER_LIMIT.windowMs);
  await slashBurst(r, user(1), r.h.channels[0]!, 100);
  const made = r.upstream() - before;
  assert.ok(made > 0, 'the commands reached the upstream');
  report(t, 'Slash and text commands, buttons', made);
});

test('"Token card": the most upstream requests one user can cause per minute', { timeout: 120_000 }, async (t) => {
  const r = await rig(t);
  const before = r.upstream();
  await tokenCardBurst(r, user(2), r.h.channels[0]!);
  r.advance(DEFAULT_USER_LIMIT.windowMs);
  await tokenCardBurst(r, user(2), r.h.channels[0]!);
  const made = r.upstream() - before;
  assert.ok(made > 0);
  report(t, '"Token card" (Discord)', made);
});

test('autocomplete: the most upstream requests one user can cause per minute', { timeout: 120_000 }, async (t) => {
  const r = await rig(t);
  const before = r.upstream();
  await autocompleteMinute(r, user(3), r.h.channels[0]!);
  const made = r.upstream() - before;
  assert.ok(made > 0);
  report(t, 'Autocomplete (Discord)', made);
});

test('automatic cards: the most upstream requests one user can cause per minute', { timeout: 120_000 }, async (t) => {
  const r = await rig(t);
  const before = r.upstream();
  await autocardsMinute(r, user(4), r.h.channels);
  const made = r.upstream() - before;
  assert.ok(made > 0);
  report(t, 'Automatic cards', made);
});

test('every entry point together: the most upstream requests one user can cause per minute', {
  timeout: 180_000,
}, async (t) => {
  const r = await rig(t);
  const me = user(5);
  const before = r.upstream();
  // Everything at the minute's start (the costly commands first, before "Token card" takes the command
  // limit), then what the command limit's second window allows at its middle.
  await slashBurst(r, me, r.h.channels[2]!, 0);
  await autocompleteMinute(r, me, r.h.channels[0]!);
  await autocardsMinute(r, me, r.h.channels);
  await tokenCardBurst(r, me, r.h.channels[1]!);
  r.advance(DEFAULT_USER_LIMIT.windowMs);
  await slashBurst(r, me, r.h.channels[2]!, 100);
  await tokenCardBurst(r, me, r.h.channels[1]!);
  const made = r.upstream() - before;
  report(t, 'Every entry point together', made);
});
