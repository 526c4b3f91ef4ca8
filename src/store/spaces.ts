/**
 * Every key space the store writes, in one list. Keys live under
 * `<space>::<key>` (keyv's namespacing) in the SQLite table `kv` and, on Redis,
 * under `kolradar:<space>::<key>`; the Redis leases add `kolradar:lease:<role>`,
 * and claims on work in flight live apart under `kolradar-work:` (claims.ts).
 *
 * The list is what `npm run backup`, `npm run restore` and `npm run migrate-store`
 * walk, and openStore refuses a space that is not here: a new kind of state
 * cannot be added without saying whether it moves with the data
 * (test/store/spaces.test.ts checks this against what a running bot writes).
 */
export const KEY_SPACES = {
  sub: { carry: true, what: 'subscriptions: filters, mutes, pauses, quiet hours, digest settings' },
  lang: { carry: true, what: 'per-chat languages chosen with /language' },
  calls: {
    carry: true,
    what: 'alerts tracked as calls, members’ own calls (/callboard) and their credits, follow-ups and scorecards',
  },
  outbox: { carry: true, what: 'alerts queued, held for quiet hours or sent (kept a while to send once)' },
  watch: {
    carry: true,
    what: 'the feed position, tweets seen, cooldowns, held counts, digests posted, paid-broadcast Stars per day, announcement channels’ publishing hours',
  },
  autocard: { carry: true, what: 'automatic-card settings per chat and their cooldowns' },
  page: { carry: true, what: 'button state behind answers already posted (expires)' },
  claim: {
    carry: true,
    what: 'platform updates already handled (expires): a retry after the move is still handled once',
  },
  work: {
    carry: false,
    what: 'embedded stores only: updates and interactions being handled, or handled lately (a store is moved with the bots stopped, so nothing is in flight)',
  },
  replay: {
    carry: false,
    what: 'answers of settings commands by request id, kept an hour for a replay after a takeover',
  },
  topic: {
    carry: true,
    what: 'forum topics the bot knows a chat has (a settings link naming another is refused)',
  },
  web: { carry: true, what: 'community pages turned on with /web: slug -> chat, and each chat’s slug' },
  owner: { carry: true, what: 'the owners’ bans, and the notices they sent (progress kept a week)' },
  meta: { carry: true, what: 'the schema version' },
  health: {
    carry: false,
    what: 'the readiness probe’s scratch key, rewritten every check, and each running instance’s roles (expire)',
  },
} as const satisfies Record<string, { carry: boolean; what: string }>;

export type KeySpace = keyof typeof KEY_SPACES;

/**
 * The Redis-only runtime keys: who holds a role right now, and the journal of subscriptions
 * changed lately (journal.ts). Never copied: a new store starts with no holder and no journal.
 */
export const REDIS_RUNTIME_PREFIXES = ['lease:', 'subjournal:'] as const;

/** The key space a raw backend key belongs to (`sub::console:1` -> `sub`), or undefined. */
export function spaceOf(rawKey: string): KeySpace | undefined {
  const i = rawKey.indexOf('::');
  const name = i > 0 ? rawKey.slice(0, i) : '';
  return Object.hasOwn(KEY_SPACES, name) ? (name as KeySpace) : undefined;
}

export const carriedSpaces = (): KeySpace[] =>
  (Object.keys(KEY_SPACES) as KeySpace[]).filter((s) => KEY_SPACES[s].carry);
