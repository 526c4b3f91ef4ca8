/**
 * From matches to outbox entries: one alert per (destination, token) per
 * cooldown. Several KOLs shilling the same token in one tick become one alert
 * naming them all; a token still cooling down in a channel is not repeated.
 */
import type { Logger } from 'pino';
import type { ChainId } from '../domain/chains.ts';
import type { KolClient } from '../api/index.ts';
import { bindAction, chatKey } from '../core/actions.ts';
import type { PageStore } from '../store/pages.ts';
import type { Kv } from '../store/strict.ts';
import type { Subscription } from '../store/subscriptions.ts';
import type { Match, TweetFacts } from './matcher.ts';
import { filterChecks } from './checks.ts';
import type { AlertButton, AlertContent, AlertKol, AlertToken, OutboxEntry } from '../store/outbox.ts';
import { marketNow, type MarketAtTime } from './market.ts';
import { hasMarketFilters, marketVerdict } from './rules.ts';
import { DEFAULT_LINKS, tokenLinks, type LinkSet } from '../domain/links.ts';
import { fnv1a } from './hash.ts';
import { threadPart } from '../domain/destination.ts';

/** Buttons on alerts outlive ordinary pages: people scroll back. */
const ALERT_ACTION_TTL_MS = 7 * 24 * 3600_000;

export interface PlanInput {
  readonly matches: readonly Match[];
  /** Tweets beyond the backlog bound; each live subscription is told once. */
  readonly skipped: number;
  readonly subs: readonly Subscription[];
  readonly batchId: string;
  readonly api: KolClient;
  readonly pages: PageStore;
  readonly state: Kv;
  readonly now: number;
  readonly budgetMs: number;
  readonly log: Logger;
  /** Chart, trading and safety links put on each alert; default: domain/links.ts's. */
  readonly links?: LinkSet;
  /** When each tweet was first read (for the delay metrics); absent: not recorded. */
  readonly readAt?: ReadonlyMap<string, number>;
  /** A market request not answered by then gets a twin; absent: none. */
  readonly hedgeAfterMs?: number;
  /** Market data already asked for (beside the author lookups): not asked again. */
  readonly early?: EarlyMarkets;
}

export interface EarlyMarkets {
  readonly keys: ReadonlySet<string>;
  readonly result: Promise<Map<string, MarketAtTime>>;
}

export interface Plan {
  readonly entries: OutboxEntry[];
  /** Market caps read for the alerted tokens (operation 2), by token key: later sightings for calls' peaks. */
  readonly markets: ReadonlyMap<string, MarketAtTime>;
  /** Matches held per subscription because a market filter needed a figure operation 2 did not give. */
  readonly held: ReadonlyMap<string, number>;
  /** Records the cooldowns of the planned alerts; call after the entries are stored. */
  commitCooldowns(): Promise<void>;
}

const cooldownKey = (subId: string, tokenKey: string) => `cd:${subId}|${tokenKey}`;

/** When a token was last alerted to a destination, and by which batch. */
interface Cooldown {
  readonly at: number;
  readonly batch: string;
  /** The alert entry that started the cooldown: later KOLs are added to it. */
  readonly entry?: string;
}

export async function planAlerts(p: PlanInput): Promise<Plan> {
  // Group matches by (destination, token), oldest tweet first.
  const groups = new Map<string, Match[]>();
  for (const m of p.matches) {
    // With no cooldown nothing is "within the cooldown": every tweet is its own alert.
    const k =
      m.sub.filters.cooldownMinutes > 0
        ? `${m.sub.id}|${m.facts.tokenKey}`
        : `${m.sub.id}|${m.facts.tokenKey}|${m.facts.tweet.id}`;
    let g = groups.get(k);
    if (!g) {
      g = [];
      groups.set(k, g);
    }
    g.push(m);
  }
  const all = [...groups.values()];
  const cooling = all.filter((g) => g[0]!.sub.filters.cooldownMinutes > 0);
  const last = await p.state.getMany<Cooldown>(cooling.map((g) => cooldownKey(g[0]!.sub.id, g[0]!.facts.tokenKey)));
  // A cooldown set by this very batch (a tick repeated after a failure) does not hold it back.
  const heldBy = new Map<Match[], Cooldown>();
  cooling.forEach((g, i) => {
    const c = last[i];
    if (c !== undefined && c.batch !== p.batchId && c.at + g[0]!.sub.filters.cooldownMinutes * 60_000 > p.now)
      heldBy.set(g, c);
  });
  const due = fairOrder(all.filter((g) => !heldBy.has(g)));

  const tokens = new Map<string, TweetFacts>();
  for (const g of due) tokens.set(g[0]!.facts.tokenKey, g[0]!.facts);
  const [early, later] = await Promise.all([
    p.early?.result ?? new Map<string, MarketAtTime>(),
    marketNow(
      p.api,
      [...tokens.values()]
        .filter((f) => !p.early?.keys.has(f.tokenKey))
        .map((f) => ({
          chain: f.tweet.token.chain_id as ChainId,
          address: f.tweet.token.token_address,
        })),
      // A new alert waits for this: a slow answer gets a twin (see marketNow).
      { budgetMs: p.budgetMs, log: p.log, ...(p.hedgeAfterMs !== undefined ? { hedgeAfterMs: p.hedgeAfterMs } : {}) },
    ),
  ]);
  const markets = new Map([...early, ...later]);
  // Market filters need the figures just read: a failed one drops the alert, an unknown one holds it.
  const held = new Map<string, number>();
  const live = due.filter((g) => {
    const m = g[0]!;
    if (!hasMarketFilters(m.sub.filters)) return true;
    const v = marketVerdict(m.sub.filters, markets.get(m.facts.tokenKey) ?? null);
    if (v === 'unknown') held.set(m.sub.id, (held.get(m.sub.id) ?? 0) + g.length);
    return v === 'pass';
  });
  const actions = await actionsOf(p, live);

  const entries: OutboxEntry[] = live.map((g) => {
    const m = g[0]!;
    const kols = alertKols(g.map((x) => x.facts));
    const market = markets.get(m.facts.tokenKey) ?? null;
    const { parts, checks } = filterChecks(
      m.sub.filters,
      m.facts,
      hasMarketFilters(m.sub.filters) ? market : undefined,
    );
    const content: AlertContent = {
      kind: 'alert',
      token: alertToken(m.facts, market),
      kols,
      reason: parts.join(', '),
      checks,
      actions: actions.get(`${m.facts.tokenKey}|${m.facts.username}`) ?? [],
      links: tokenLinks(
        p.links ?? DEFAULT_LINKS,
        m.facts.tweet.token.chain_id as ChainId,
        m.facts.tweet.token.token_address,
      ),
    };
    const entry = alertEntry(`${m.facts.tweet.id}:${m.sub.id}`, m.sub, content, p.now);
    const readAt = p.readAt?.get(m.facts.tweet.id);
    return readAt === undefined ? entry : { ...entry, readAt };
  });
  // Within the cooldown: no new alert; the earlier one is edited to name the new KOLs too.
  for (const [g, c] of heldBy) {
    if (!c.entry) continue;
    const m = g[0]!;
    entries.push(
      alertEntry(
        `more:${m.facts.tweet.id}:${m.sub.id}`,
        m.sub,
        { kind: 'more', of: c.entry, kols: alertKols(g.map((x) => x.facts)) },
        p.now,
      ),
    );
  }
  if (p.skipped > 0) {
    const text = `kolradar was behind the feed: ${p.skipped.toLocaleString('en-US')} older tweets were skipped; alerts continue from the newest.`;
    for (const s of p.subs)
      if (!s.disabled)
        entries.push(alertEntry(`skip-${p.batchId}:${s.id}`, s, { kind: 'notice', text, skipped: p.skipped }, p.now));
  }
  return {
    entries,
    markets,
    held,
    async commitCooldowns() {
      const cooling = live.filter((g) => g[0]!.sub.filters.cooldownMinutes > 0);
      for (let i = 0; i < cooling.length; i += 500) {
        await Promise.all(
          cooling.slice(i, i + 500).map((g) => {
            const m = g[0]!;
            const c: Cooldown = { at: p.now, batch: p.batchId, entry: `${m.facts.tweet.id}:${m.sub.id}` };
            return p.state.set(cooldownKey(m.sub.id, m.facts.tokenKey), c, m.sub.filters.cooldownMinutes * 60_000);
          }),
        );
      }
    },
  };
}

/**
 * A fair fan-out: each alert's destinations are sent to in the subscriptions'
 * order, but starting at a point chosen from the tweet's id, so over many
 * alerts no community is always first or always last. Stable for one tweet: a
 * tick repeated after a crash queues the same entries in the same order.
 */
function fairOrder(groups: readonly Match[][]): Match[][] {
  const byTweet = new Map<string, Match[][]>();
  for (const g of groups) {
    const id = g[0]!.facts.tweet.id;
    const list = byTweet.get(id);
    if (list) list.push(g);
    else byTweet.set(id, [g]);
  }
  return [...byTweet].flatMap(([id, gs]) => {
    const k = fnv1a(id) % gs.length;
    return [...gs.slice(k), ...gs.slice(0, k)];
  });
}

/** A new outbox entry for one destination. */
export function alertEntry(id: string, sub: Subscription, content: AlertContent, now: number): OutboxEntry {
  return {
    id,
    subId: sub.id,
    platform: sub.platform,
    chatId: sub.chatId,
    ...threadPart(sub.threadId),
    isGroup: sub.isGroup,
    content,
    createdAt: now,
    state: 'pending',
    attempts: 0,
    notBefore: 0,
  };
}

/** The KOLs of these tweets, each once, as an alert names them. */
export function alertKols(facts: readonly TweetFacts[]): AlertKol[] {
  const seen = new Set<string>();
  const out: AlertKol[] = [];
  for (const f of facts) {
    if (seen.has(f.username)) continue;
    seen.add(f.username);
    const username = f.tweet.x_user[0]?.username ?? f.username;
    out.push({
      username,
      displayName: f.displayName ?? username,
      followers: f.followers,
      score: f.kolScore,
      tweetUrl: `https://x.com/${encodeURIComponent(username)}/status/${f.tweet.twitter_id}`,
      text: f.tweet.content,
      tweetedAt: f.tweet.tweeted_at,
    });
  }
  return out;
}

/** The token of a tweet as an alert shows it; market cap and liquidity come from a lookup of their own (op 2). */
export function alertToken(f: TweetFacts, market: MarketAtTime | null): AlertToken {
  const t = f.tweet.token;
  return {
    name: t.name,
    symbol: t.symbol,
    chain: t.chain_id as ChainId,
    address: t.token_address,
    score: t.avg_score,
    marketCap: market?.marketCap ?? null,
    liquidity: market?.liquidity ?? null,
    change1h: t.change1h,
    change24h: t.change24h,
  };
}

/**
 * Token card, KOL card and mute buttons, stored once per (token, KOL) and
 * shared by every destination that alert goes to (and bound to those chats only).
 */
async function actionsOf(p: PlanInput, groups: readonly Match[][]) {
  const out = new Map<string, AlertButton[]>();
  const chats = new Map<string, Set<string>>();
  for (const g of groups) {
    const key = `${g[0]!.facts.tokenKey}|${g[0]!.facts.username}`;
    let set = chats.get(key);
    if (!set) {
      set = new Set();
      chats.set(key, set);
    }
    set.add(chatKey(g[0]!.sub));
  }
  for (const g of groups) {
    const f = g[0]!.facts;
    const key = `${f.tokenKey}|${f.username}`;
    if (out.has(key)) continue;
    const t = f.tweet.token;
    const specs = [
      // English labels for the record; the alert's view says them in the destination's language.
      { label: 'Token card', command: 'token', options: { chain: t.chain_id, address: t.token_address } },
      {
        label: `@${f.tweet.x_user[0]?.username ?? f.username}`,
        command: 'kol',
        options: { kol: f.tweet.x_user[0]?.username ?? f.username },
      },
      {
        label: 'Mute token',
        command: 'mute',
        options: { chain: t.chain_id, address: t.token_address },
        style: 'danger' as const,
      },
    ];
    out.set(
      key,
      await Promise.all(
        specs.map(async (s) => ({
          ...s,
          id: await bindAction(p.pages, { ...s, chats: [...chats.get(key)!] }, ALERT_ACTION_TTL_MS, { opensNew: true }),
        })),
      ),
    );
  }
  return out;
}
