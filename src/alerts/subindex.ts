/**
 * Which subscriptions want which tweet, as an index that changes one
 * subscription at a time: adding, changing or removing one costs a few array
 * writes, never a rebuild of the other million (issue #42).
 *
 * Subscriptions sit in cells keyed by (chain, whole token-score floor, KOL-score
 * floor in tens). A tweet walks only the cells whose floors it reaches, so most
 * subscriptions it cannot pass are never looked at. A cell keeps its entries'
 * numbers in parallel typed arrays: the hot loop reads contiguous memory, and a
 * subscription object is read only to confirm a hash hit or a match. An entry
 * leaves its cell by swapping the cell's last entry into its place.
 */
import type { Subscription } from '../store/subscriptions.ts';
import type { ChainId } from '../domain/chains.ts';
import { isUnspaced, keywordsIn } from './rules.ts';
import { hash32, isAfter, type TweetFacts } from './matcher.ts';
import { Bits, Cell, Counts, grown } from './cells.ts';

export interface CompiledSubscriptions {
  readonly size: number;
  /**
   * The subscriptions that want this tweet (no wrapper objects: a page can match 100,000s).
   * Those that would want it but filter on a fact that is unknown, or block a word the
   * tweet has, are pushed to `held`.
   */
  match(facts: TweetFacts, now: number, held?: Subscription[]): Subscription[];
}

/** What the watcher asks the feed for: the loosest filters any live subscription allows. */
export interface LoosestFilters {
  minTokenScore?: number;
  minKolScore?: number;
  minFollowerCount?: number;
  chainId?: ChainId[];
  tweetTypes?: string[];
}

export interface SubscriptionIndex extends CompiledSubscriptions {
  /** Adds the subscription or replaces the one with its id; a disabled one leaves the index. */
  put(sub: Subscription): void;
  /** False when it was not in the index. */
  remove(id: string): boolean;
  /** Every subscription in the index (the live ones), in no particular order. */
  live(): IterableIterator<Subscription>;
  /** The same as loosestFilters over live(), kept as counts: no walk over the subscriptions. */
  loosest(): LoosestFilters;
}

const ALLOW = 1;
const DENY = 2;
const MUTED = 3;
const KEYWORD = 4;
const BLOCKED = 5;
/** Added to a keyword kind: a keyword in an unspaced script, found inside the text, not by its hash. */
const INSIDE = 8;
/** flags: labels or types past the bit masks (compare strings); lists to check. */
const EXACT = 1;
const LISTS = 2;

/** Token-score floors 0..100 (whole points), KOL-score floors 0..10 (tens). */
const TOKEN_WIDTH = 1;
const KOL_WIDTH = 10;
const TOKEN_STEPS = Math.floor(100 / TOKEN_WIDTH) + 1;
const KOL_STEPS = Math.floor(100 / KOL_WIDTH) + 1;
const PER_CHAIN = TOKEN_STEPS * KOL_STEPS;

/** A subscription's KOL lists, mutes and keywords as hashes, each with its kind. */
interface Lists {
  readonly hash: Int32Array;
  readonly kind: Uint8Array;
}

function listsOf(s: Subscription): Lists | undefined {
  const f = s.filters;
  const hashes: number[] = [];
  const kinds: number[] = [];
  for (const [kind, list] of [
    [ALLOW, f.allowKols],
    [DENY, f.denyKols],
    [MUTED, s.mutedTokens],
  ] as const) {
    for (const item of list) {
      hashes.push(hash32(item));
      kinds.push(kind);
    }
  }
  for (const [kind, list] of [
    [KEYWORD, f.keywords ?? []],
    [BLOCKED, f.blockKeywords ?? []],
  ] as const) {
    for (const word of list) {
      hashes.push(hash32(word));
      kinds.push(isUnspaced(word) ? kind + INSIDE : kind);
    }
  }
  return hashes.length ? { hash: Int32Array.from(hashes), kind: Uint8Array.from(kinds) } : undefined;
}

/** The exact check, for the rare subscription whose labels or types did not fit the bit masks. */
function exactAccepts(sub: Subscription, t: TweetFacts): boolean {
  const f = sub.filters;
  if (f.tweetTypes.length && !f.tweetTypes.includes(t.tweetType)) return false;
  if (f.labels.length && t.labels && !f.labels.some((l) => t.labels!.includes(l))) return false;
  return true;
}

const floorIn = (x: number, steps: number): number =>
  Number.isNaN(x) ? steps - 1 : Math.max(0, Math.min(steps - 1, Math.floor(x)));

/**
 * What matching and planning read of a subscription, as the index holds it: its name, server and
 * who made it when are the owner's bookkeeping, read from the store where shown, never from a
 * match. A million subscriptions hold about 120 MB less.
 */
export function leanSubscription(s: Subscription): Subscription {
  const { name: _name, serverId: _server, ...rest } = s;
  return { ...rest, createdBy: '', createdAt: 0, updatedAt: 0 };
}

/** A tweet's facts as the hot loop reads them, worked out once per tweet. */
interface Tweet {
  readonly facts: TweetFacts;
  readonly now: number;
  readonly out: Subscription[];
  readonly heldBack: Subscription[] | undefined;
  readonly lists: readonly (Lists | undefined)[];
  readonly tweetMs: number;
  readonly kolScore: number;
  readonly followers: number;
  readonly tweetLabels: number;
  readonly tweetType: number;
  readonly userHash: number;
  readonly tokenHash: number;
}

/**
 * One cell against one tweet. A function of its own, not a loop inside match(): V8 optimises
 * it whole, where an inner loop optimised on its own was thrown away at every exit (4x slower).
 */
function scan(c: Cell, t: Tweet): void {
  const { facts, now, out, heldBack, lists, tweetMs, kolScore, followers, tweetLabels, tweetType } = t;
  const { tokenScore, username, tokenKey, words, wordHashes } = facts;
  const unknownKol = facts.kolScore === null;
  const unknownFollowers = facts.followers === null;
  const unknownLabels = facts.labels === null;
  const anyUnknown = unknownKol || unknownFollowers || unknownLabels;
  const { userHash, tokenHash } = t;
  const { n, minToken, minKol, minFollowers, startMs, pausedUntil, labelMask, typeMask, flags, slot, subs } = c;
  next: for (let i = 0; i < n; i++) {
    if (
      minToken[i]! > tokenScore ||
      minKol[i]! > kolScore ||
      minFollowers[i]! > followers ||
      startMs[i]! > tweetMs ||
      pausedUntil[i]! > now
    )
      continue;
    const lm = labelMask[i]!;
    if (lm !== 0 && !unknownLabels && (lm & tweetLabels) === 0) continue;
    const tm = typeMask[i]!;
    if (tm !== 0 && (tm & tweetType) === 0) continue;
    const fl = flags[i]!;
    const sub = subs[i] as Subscription;
    let blocked = false;
    if ((fl & LISTS) !== 0) {
      const { hash, kind: kinds } = lists[slot[i]!]!;
      let allowList = false;
      let allowed = false;
      let wordList = false;
      let said = false;
      for (let j = 0; j < hash.length; j++) {
        const kind = kinds[j]!;
        if (kind === ALLOW) {
          allowList = true;
          if (hash[j] === userHash && sub.filters.allowKols.includes(username)) allowed = true;
        } else if (kind === DENY) {
          if (hash[j] === userHash && sub.filters.denyKols.includes(username)) continue next;
        } else if (kind === MUTED) {
          if (hash[j] === tokenHash && sub.mutedTokens.includes(tokenKey)) continue next;
        } else {
          // A hash hit (or an unspaced keyword) is confirmed on the words themselves.
          const maybe = kind > INSIDE || wordHashes.has(hash[j]!);
          if (kind % INSIDE === KEYWORD) {
            wordList = true;
            if (!said && maybe) said = keywordsIn(words, sub.filters.keywords).length > 0;
          } else if (!blocked && maybe) blocked = keywordsIn(words, sub.filters.blockKeywords).length > 0;
        }
      }
      if ((allowList && !allowed) || (wordList && !said)) continue;
    }
    if ((fl & EXACT) !== 0 && !exactAccepts(sub, facts)) continue;
    // Same second as the start position: only the exact feed order can tell.
    if (startMs[i] === tweetMs && !isAfter(facts.position, sub.startAfter!)) continue;
    if (
      blocked ||
      (anyUnknown &&
        ((unknownKol && minKol[i]! > 0) ||
          (unknownFollowers && minFollowers[i]! > 0) ||
          (unknownLabels && sub.filters.labels.length > 0)))
    ) {
      heldBack?.push(sub);
      continue;
    }
    out.push(sub);
  }
}

/** The index as the watcher holds it: a lean copy of each subscription, read one at a time. */
export async function compileLean(subs: AsyncIterable<Subscription>): Promise<SubscriptionIndex> {
  const index = compile();
  for await (const s of subs) index.put(leanSubscription(s));
  return index;
}

/** An index holding `subs` (the disabled ones left out). */
export function compile(subs: Iterable<Subscription> = []): SubscriptionIndex {
  const labels = new Bits();
  const types = new Bits();
  const chainNo = new Map<string, number>([['*', 0]]);
  const cells: (Cell | undefined)[] = [];
  /** Per slot: the subscription, its lists, and where its first entry is (its other chains' in `more`). */
  const held: (Subscription | undefined)[] = [];
  const lists: (Lists | undefined)[] = [];
  let home = new Int32Array(1024);
  let homeAt = new Int32Array(1024);
  const more = new Map<number, { cell: number; at: number }[]>();
  const free: number[] = [];
  const slotOf = new Map<string, number>();
  const count = {
    token: new Counts<number>(),
    kol: new Counts<number>(),
    followers: new Counts<number>(),
    chains: new Counts<string>(),
    types: new Counts<string>(),
  };

  const moved = (slot: number, from: number, cell: number, at: number) => {
    if (home[slot] === cell && homeAt[slot] === from) homeAt[slot] = at;
    else for (const p of more.get(slot) ?? []) if (p.cell === cell && p.at === from) p.at = at;
  };

  function counted(s: Subscription, by: 1 | -1) {
    const f = s.filters;
    count.token.add(f.minTokenScore, by);
    count.kol.add(f.minKolScore, by);
    count.followers.add(f.minFollowers, by);
    for (const c of f.chains.length ? f.chains : ['*']) count.chains.add(c, by);
    for (const t of f.tweetTypes.length ? f.tweetTypes : ['*']) count.types.add(t, by);
  }

  function add(s: Subscription) {
    const slot = free.pop() ?? held.length;
    if (slot >= home.length) {
      home = grown(home, home.length * 2);
      homeAt = grown(homeAt, homeAt.length * 2);
    }
    held[slot] = s;
    const l = listsOf(s);
    lists[slot] = l;
    slotOf.set(s.id, slot);
    counted(s, 1);
    const f = s.filters;
    const lm = labels.maskFor(f.labels);
    const tm = types.maskFor(f.tweetTypes);
    const flags = (lm === undefined || tm === undefined ? EXACT : 0) | (l ? LISTS : 0);
    const step =
      floorIn(f.minTokenScore / TOKEN_WIDTH, TOKEN_STEPS) * KOL_STEPS + floorIn(f.minKolScore / KOL_WIDTH, KOL_STEPS);
    const chains = f.chains.length ? f.chains : ['*'];
    chains.forEach((chain, i) => {
      let no = chainNo.get(chain);
      if (no === undefined) {
        no = chainNo.size;
        chainNo.set(chain, no);
      }
      const key = no * PER_CHAIN + step;
      const c = cells[key] ?? new Cell();
      cells[key] = c;
      const at = c.push();
      c.minToken[at] = f.minTokenScore;
      c.minKol[at] = f.minKolScore;
      c.minFollowers[at] = f.minFollowers;
      c.startMs[at] = s.startAfter ? Date.parse(s.startAfter.tweetedAt) : -Infinity;
      c.pausedUntil[at] = s.pausedUntil ?? 0;
      c.labelMask[at] = lm ?? 0;
      c.typeMask[at] = tm ?? 0;
      c.flags[at] = flags;
      c.slot[at] = slot;
      c.subs[at] = s;
      if (i === 0) {
        home[slot] = key;
        homeAt[slot] = at;
      } else {
        const m = more.get(slot) ?? [];
        m.push({ cell: key, at });
        more.set(slot, m);
      }
    });
  }

  function remove(id: string): boolean {
    const slot = slotOf.get(id);
    if (slot === undefined) return false;
    for (const p of [{ cell: home[slot]!, at: homeAt[slot]! }, ...(more.get(slot) ?? [])]) {
      const c = cells[p.cell]!;
      const from = c.n - 1;
      const m = c.removeAt(p.at);
      if (m >= 0) moved(m, from, p.cell, p.at);
    }
    more.delete(slot);
    counted(held[slot]!, -1);
    held[slot] = undefined;
    lists[slot] = undefined;
    slotOf.delete(id);
    free.push(slot);
    return true;
  }

  function put(s: Subscription) {
    remove(s.id);
    if (!s.disabled) add(s);
  }

  for (const s of subs) put(s);

  return {
    get size() {
      return slotOf.size;
    },
    put,
    remove,
    *live() {
      for (const s of held) if (s) yield s;
    },
    loosest() {
      const out: LoosestFilters = {};
      if (!slotOf.size) return out;
      const min = (c: Counts<number>) => c.keys().reduce((m, x) => Math.min(m, x), Infinity);
      const t = min(count.token);
      const k = min(count.kol);
      const fc = min(count.followers);
      if (t > 0) out.minTokenScore = t;
      if (k > 0) out.minKolScore = k;
      if (fc > 0) out.minFollowerCount = fc;
      if (!count.chains.has('*')) out.chainId = (count.chains.keys() as ChainId[]).sort();
      if (!count.types.has('*')) out.tweetTypes = count.types.keys().sort();
      return out;
    },
    match(facts, now, heldBack) {
      const out: Subscription[] = [];
      // Unknown is NaN here: every comparison with it is false, so it passes the hot loop's
      // threshold tests (and every KOL floor) and is caught by the unknown check just before a match.
      const kolScore = facts.kolScore ?? NaN;
      const t: Tweet = {
        facts,
        now,
        out,
        heldBack,
        lists,
        tweetMs: Date.parse(facts.position.tweetedAt),
        kolScore,
        followers: facts.followers ?? NaN,
        tweetLabels: labels.maskOf(facts.labels ?? []),
        tweetType: types.maskOf([facts.tweetType]),
        userHash: hash32(facts.username),
        tokenHash: hash32(facts.tokenKey),
      };
      const topToken = floorIn(facts.tokenScore / TOKEN_WIDTH, TOKEN_STEPS);
      const topKol = floorIn(kolScore / KOL_WIDTH, KOL_STEPS);
      for (const chain of [facts.chain, '*']) {
        const no = chainNo.get(chain);
        if (no === undefined) continue;
        for (let ts = 0; ts <= topToken; ts++) {
          const row = no * PER_CHAIN + ts * KOL_STEPS;
          for (let ks = 0; ks <= topKol; ks++) {
            const c = cells[row + ks];
            if (c !== undefined && c.n > 0) scan(c, t);
          }
        }
      }
      return out;
    },
  };
}
