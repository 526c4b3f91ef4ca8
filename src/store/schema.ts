/**
 * The store's schema version, checked at every start and while running.
 *
 * The store records `meta::schema` = { version, oldestCode }: the layout its
 * data is in, and the oldest code version that may still run on it. At start:
 * - the same version: run;
 * - older: migrate in place, under a lock, so that of several instances starting
 *   at once exactly one migrates and the others wait for it;
 * - newer: run only if every migration since this code's version was an expand
 *   step (`oldestCode` not above this code's version), else refuse with one line.
 * While running, `watchSchema` re-reads the mark: when a newer instance has
 * contracted the layout, this one stops taking work with one line.
 *
 * ADDING A MIGRATION (any change to what is stored: a new field, a renamed key,
 * a new key space):
 * 1. append `{ to: N + 1, what, kind, up }` to MIGRATIONS below; `up` must be
 *    safe to run twice (a crash after some of its writes and before the version
 *    is recorded runs it again);
 * 2. kind 'expand' when code of version N still runs correctly on the result
 *    (it ignores a new field or space), 'contract' when it must not (something
 *    removed, renamed or reshaped): a contract needs every older instance gone,
 *    see docs/deploy.md, "Upgrading";
 * 3. a new key space goes into spaces.ts, which backup and migrate-store walk;
 * 4. test it from data written by version N: `seedVersion(url, N)` in
 *    test/helpers/schema.ts, then `npm run store-snapshot` to record what version
 *    N + 1 writes (test/store/versions/v<N+1>.json) for the next one.
 */
import type { Logger } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { StartupError } from '../startup.ts';
import type { Kv } from './strict.ts';
import type { KeySpace } from './spaces.ts';
import type { RawStore } from './raw.ts';
import { indexMembersDay } from './membercalls.ts';
import type { Subscription } from './subscriptions.ts';
import { createKnownTopics } from './topics.ts';

export interface Migration {
  /** The version this brings the store to: its place in MIGRATIONS plus one. */
  readonly to: number;
  /** What changes, in a few words, for the log line. */
  readonly what: string;
  /** 'expand': the previous version still runs on the result; 'contract': it must not. */
  readonly kind: 'expand' | 'contract';
  /** Rewrites stored data; safe to run twice. */
  up(space: (name: KeySpace) => Kv, log: Logger): Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    to: 1,
    what: 'records the schema version; the layout of stores written before versions is version 1 unchanged',
    kind: 'expand',
    async up() {},
  },
  {
    to: 2,
    what: 'subscriptions may carry market and keyword filters, alerts chart, trading and safety links, and the watcher keeps hourly shill counts (shills:<hour>); where absent (every older row) they are off or empty, so nothing is rewritten',
    // Version 1 code ignores the new fields and keys: it alerts without the market and
    // keyword filters and the links, and its digests rank by operation 2, as they always did.
    kind: 'expand',
    async up() {},
  },
  {
    to: 3,
    what: 'an outbox entry may carry readAt, when the watcher first read its tweet (for the read-to-sent delay metric); entries written before carry none and are sent as they are, without a delay sample',
    // Version 2 code ignores the field: it sends the entry as before.
    kind: 'expand',
    async up() {},
  },
  {
    to: 4,
    what: 'a destination may be a forum topic of a chat: subscriptions, outbox entries and calls may carry threadId, and per-topic subscriptions, languages, automatic-card settings and button bindings are keyed platform:chat:thread; rows without a thread (every older one) are the chat itself under their old keys, so nothing is rewritten',
    // Version 3 code reads every row it wrote unchanged. It ignores threadId: a topic's
    // subscription made by version 4 would post in the chat's General topic there, as
    // version 1 code alerted without version 2's filters; nothing stored is lost or misread.
    kind: 'expand',
    async up() {},
  },
  {
    to: 5,
    what: 'the owner space holds the owners’ bans and notices, and a subscription may carry serverId (the Discord server or Telegram group it was made in, for the per-server quota and server bans); older subscriptions carry none and count for their own chat',
    // Version 4 code ignores the new space and field: it runs, without bans or quotas.
    kind: 'expand',
    async up() {},
  },
  {
    to: 6,
    what: "members' own calls (/callboard): board settings, first-call credits, board indexes and calls with a member and no alert, in the calls space beside the alerts' calls; nothing older is rewritten",
    // Version 5 code would follow a member's call like an alert's and try to edit an alert it does
    // not have: it must not run beside this layout once a board records calls.
    kind: 'contract',
    async up() {},
  },
  {
    to: 7,
    what: "each member's calls of the last day on a board are listed apart (calls u:<board>:<member>), so the daily cap reads those instead of the whole board; built here from the boards",
    // Version 6 code ignores the lists and counts from the board, as before.
    kind: 'expand',
    async up(space) {
      await indexMembersDay(space('calls'));
    },
  },
  {
    to: 8,
    what: 'a subscription may carry posting (a Discord role to ping on new alerts, publishing in an announcement channel, a forum’s tags), and a Discord thread is a destination (channel, thread) as a Telegram topic is; older rows carry none and post a plain message as before, so nothing is rewritten',
    // Version 7 code ignores posting: it alerts without the ping and without publishing, and
    // posts a thread's alerts in its parent channel; nothing stored is lost or misread.
    kind: 'expand',
    async up() {},
  },
  {
    to: 9,
    what: "a button page may carry a call's id (options.call: the 'Call card' button of a member's call); older pages carry none and open as before",
    // Version 8 code does not know the option: a press of such a button there gets the short answer
    // of an unreadable option, nothing stored is misread.
    kind: 'expand',
    async up() {},
  },
  {
    to: 10,
    what: "a button page may carry what it asks (ask: the settings panel's value, asked by a modal or a forced reply), and the page space keeps the forced-reply questions awaiting an answer (prompt:<platform>:<chat>:<message>); older pages ask nothing",
    // Version 9 code reads such a page as a plain button and ignores the prompt keys (they expire
    // in 30 minutes): a press there runs the panel without the value, which answers that it needs one.
    kind: 'expand',
    async up() {},
  },
  {
    to: 11,
    what: "calls of alerts sent together in a burst message carry the calls of that message (burst) and follow-up points: the message is edited with every token's move since; older calls have neither and are not followed",
    // Version 10 code ignores `burst`: it would edit a burst's message with one alert's card for each due
    // point of such a call (as for an alert of its own), which a version-11 instance puts right at the next point.
    kind: 'expand',
    async up() {},
  },
  {
    to: 12,
    what: "the watcher's space keeps what Telegram paid broadcasts spent per UTC day (paid:<day>, tenths of a Star, kept two days), so the daily cap holds across restarts",
    // Version 11 code ignores the key: its paid broadcasts count the day from zero, as before.
    kind: 'expand',
    async up() {},
  },
  {
    to: 13,
    what: 'the calls space keeps, per token, the ids of its kept calls (k:<token>), so a later sighting of the token raises the peak of calls whose follow-ups are done; calls recorded before have no entry and keep the peak their follow-ups saw',
    // Version 12 code ignores the key (it raises only open calls' peaks, as before) and records calls
    // without adding to it: those calls miss later sightings, nothing more.
    kind: 'expand',
    async up() {},
  },
  {
    to: 14,
    what: 'a digest in the outbox is stored as its figures (data) and said in the destination’s language, with its picture drawn, when it is sent; digests queued before are stored rendered (view, picture) and are sent as they were, so nothing is rewritten',
    // Version 13 code would send a digest stored as figures as an empty card (it reads `view`): it must
    // not run beside this layout once a digest is queued by version 14.
    kind: 'contract',
    async up() {},
  },
  {
    to: 15,
    what: 'the notice that a timed pause ran out is stored in the outbox as what happened (event: pause-ended, until) and said in the destination’s language when it is sent; such notices queued before are stored as text and are sent as they were, so nothing is rewritten',
    // Version 14 code reads a notice's `text`: it would send a notice stored as an event as an empty
    // message. It must not run beside this layout once such a notice is queued by version 15.
    kind: 'contract',
    async up() {},
  },
  {
    to: 16,
    what: 'the topic space holds the forum topics the bot knows each chat has (a settings link naming another topic is refused); every topic with a subscription is recorded there',
    // Version 15 code never reads the space: it runs on the result as before.
    kind: 'expand',
    async up(space) {
      const topics = createKnownTopics(space('topic'));
      for await (const [key, s] of space('sub').entries<Subscription>())
        if (key !== '_version' && s?.threadId) await topics.add(s.platform, s.chatId, s.threadId);
    },
  },
  {
    to: 17,
    what: 'community pages (/web): a new key space, web, maps each public slug to its chat (s:<slug>) and each chat to its slug (c:<platform>:<chatId>); nothing existing is rewritten',
    // Version 16 code never reads the space: it serves no pages and leaves the mappings alone.
    kind: 'expand',
    async up() {},
  },
  {
    to: 18,
    what: 'a subscription carries rev, its version, raised by every write; a change made from a read is written only while the store holds the version read (compare-and-set), so two instances changing one destination at once keep both changes; older rows carry none and read as version 0, so nothing is rewritten',
    // Version 17 code ignores rev and writes records without it: such a write reads as version 0
    // again, so a change read before it is refused as a conflict and redone, never lost.
    kind: 'expand',
    async up() {},
  },
  {
    to: 19,
    what: "the watcher's space keeps each Discord announcement channel's publishing hour (publish:<channel>: when its publishes of the last hour went out, and the alerts posted unpublished since the last summary) and the channels with a summary to come (publish:held), so a restart neither publishes into Discord's hour-long 429 nor loses the summary; nothing older is rewritten",
    // Version 18 code ignores the keys: after a restart it counts the hour from zero, as before.
    kind: 'expand',
    async up() {},
  },
];

/** The version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export interface SchemaMark {
  readonly version: number;
  /** The oldest code version that may run on this store: raised by each contract migration. */
  readonly oldestCode: number;
  readonly at: number;
  readonly by: string;
}

export const MARK_KEY = 'schema';
/** Raw key of the migration lock, in the meta space. */
export const LOCK_KEY = 'meta::migrating';
const LOCK_TTL_MS = 30_000;

export interface SchemaOptions {
  readonly space: (name: KeySpace) => Kv;
  readonly raw: RawStore;
  /** "sqlite at ./data/kolradar.sqlite": for the lines a person reads. */
  readonly where: string;
  readonly log: Logger;
  /** Who migrates, for the lock and the mark: host:pid:id. */
  readonly instance: string;
  /** Tests pass their own list; the default is this release's. */
  readonly migrations?: readonly Migration[];
  /** Longest to wait for another instance's migration (default 10 min). */
  readonly waitMs?: number;
  readonly pollMs?: number;
}

/** Why this code may not run on a store at `mark`, or undefined when it may. */
export function tooOld(mark: SchemaMark | undefined, code: number, where: string): string | undefined {
  if (!mark || mark.version <= code || mark.oldestCode <= code) return undefined;
  return (
    `the store (${where}) is at schema version ${mark.version}, written by a newer kolradar; this one knows ` +
    `version ${code} and may not run on it. Start the newer release, or restore the backup taken before the upgrade.`
  );
}

const check = (migrations: readonly Migration[]) =>
  migrations.forEach((m, i) => {
    if (m.to !== i + 1) throw new Error(`schema migration ${i} says it brings version ${m.to}, not ${i + 1}`);
  });
check(MIGRATIONS);

/**
 * Brings the store to this code's version (or accepts a newer one it may run
 * on), and returns the version found and the mark now stored. Throws a
 * StartupError with one line when this code may not run on the store.
 */
export async function ensureSchema(o: SchemaOptions): Promise<{ found: number; mark: SchemaMark }> {
  const migrations = o.migrations ?? MIGRATIONS;
  check(migrations);
  const code = migrations.length;
  const meta = o.space('meta');
  const deadline = Date.now() + (o.waitMs ?? 600_000);
  let found: number | undefined;
  let waited = false;
  for (;;) {
    const mark = await meta.get<SchemaMark>(MARK_KEY);
    found ??= mark?.version ?? 0;
    const refused = tooOld(mark, code, o.where);
    if (refused) throw new StartupError(refused);
    if (mark && mark.version >= code) {
      if (mark.version > code)
        o.log.warn(
          { schema: mark.version, code },
          `the store is at schema version ${mark.version}, newer than this kolradar's ${code}; the changes since are additive, so it runs`,
        );
      return { found, mark };
    }
    const holder = JSON.stringify({ value: o.instance, expires: Date.now() + LOCK_TTL_MS });
    if (await o.raw.take(LOCK_KEY, holder, LOCK_TTL_MS)) {
      try {
        return { found, mark: await migrate(o, migrations, mark) };
      } finally {
        await o.raw.delete(LOCK_KEY).catch(() => {});
      }
    }
    if (!waited) o.log.info(`another instance is migrating the store (${o.where}); waiting for it`);
    waited = true;
    if (Date.now() > deadline)
      throw new StartupError(
        `another instance has been migrating the store (${o.where}) for too long; check its log, or remove the key ${LOCK_KEY} if it died`,
      );
    await sleep(o.pollMs ?? 250);
  }
}

async function migrate(
  o: SchemaOptions,
  migrations: readonly Migration[],
  start: SchemaMark | undefined,
): Promise<SchemaMark> {
  const meta = o.space('meta');
  // Re-read under the lock: another instance may have finished between our read and our lock.
  let mark = (await meta.get<SchemaMark>(MARK_KEY)) ?? start;
  // The lock outlives a long migration by renewal; a migrator that dies frees it within its TTL.
  const renew = setInterval(() => {
    void o.raw.putRows([
      { key: LOCK_KEY, value: JSON.stringify({ value: o.instance }), expiresAt: Date.now() + LOCK_TTL_MS },
    ]);
  }, LOCK_TTL_MS / 3);
  try {
    for (const m of migrations.slice(mark?.version ?? 0)) {
      const began = Date.now();
      await m.up(o.space, o.log);
      mark = {
        version: m.to,
        oldestCode: m.kind === 'contract' ? m.to : (mark?.oldestCode ?? 0),
        at: Date.now(),
        by: o.instance,
      };
      await meta.set(MARK_KEY, mark);
      o.log.info(
        { schema: m.to, kind: m.kind, ms: Date.now() - began },
        `store migrated to schema version ${m.to}: ${m.what}`,
      );
    }
  } finally {
    clearInterval(renew);
  }
  return mark!;
}

/**
 * While running: re-reads the mark every `everyMs` and calls `onTooOld` once
 * with the line to log when a newer instance contracted the layout. A failed
 * read is left to the store's own outage handling.
 */
export function watchSchema(o: {
  readonly meta: Kv;
  readonly code?: number;
  readonly where: string;
  readonly everyMs: number;
  onTooOld(line: string): void;
}): { stop(): void; check(): Promise<void> } {
  let fired = false;
  const check = async () => {
    if (fired) return;
    const mark = await o.meta.get<SchemaMark>(MARK_KEY).catch(() => undefined);
    const line = tooOld(mark, o.code ?? SCHEMA_VERSION, o.where);
    if (!line) return;
    fired = true;
    o.onTooOld(line);
  };
  const timer = setInterval(() => void check(), o.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer), check };
}
