import { type Rng, chance, gauss, hex, int, logUniform, pick, round, snowflake, zipfSampler, shuffle } from './prng.ts';
import type { Store } from './store.ts';
import { HORIZONS, type SandboxKol, type SandboxToken, type SandboxTweet, type Shill } from './types.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
const CHAIN_NAMES: Record<string, string> = {
  solana: 'Solana',
  bsc: 'BNB Chain',
  base: 'Base',
  sui: 'Sui',
  aptos: 'Aptos',
};

export interface TweetSpec {
  kol: SandboxKol;
  tokens: SandboxToken[];
  ms: number;
  type?: string | undefined;
  content?: string | undefined;
  sentiment?: number | undefined;
  tokenScore?: number | undefined;
  kolScore?: number | undefined;
}

function pickType(r: Rng): string {
  const x = r();
  return x < 0.6 ? 'tweet' : x < 0.8 ? 'reply' : x < 0.92 ? 'quote' : 'retweet';
}

function content(r: Rng, store: Store, tokens: SandboxToken[], type: string): string {
  const main = tokens[0] as SandboxToken;
  const sym = `$${main.symbol}`;
  const rest = tokens
    .slice(1)
    .map((t) => `$${t.symbol}`)
    .join(' ');
  const other = pick(r, store.data.kols).username;
  const body = pick(r, [
    `${sym} looking ready to send 🚀`,
    `Aped more ${sym} here. CA: ${main.address}`,
    `Chart on ${sym} is clean. Targets ${int(r, 2, 20)}x 📈\n\n${main.address}`,
    `gm. still holding ${sym}, not selling a single bag`,
    `Who's watching ${sym}? Volume picking up on ${CHAIN_NAMES[main.chain_id] ?? main.chain_id}`,
    `Dev wallet on ${sym} just moved ${int(r, 1, 40)}% of supply 👀 careful`,
    `${sym} ${int(r, 2, 9)}x from my call. Told you. NFA`,
    `Thread 🧵 on why ${sym} is undervalued:\n1/ community\n2/ liquidity\n3/ memes`,
  ]);
  const extra = rest ? ` Also watching ${rest}.` : '';
  if (type === 'reply') return `@${other} ${body}${extra}`;
  if (type === 'retweet') return `RT @${other}: ${body}${extra}`;
  if (type === 'quote')
    return `${body}${extra} https://x.sandbox.invalid/${other}/status/${snowflake(Date.UTC(2024, 0, 1), int(r, 0, 99999))}`;
  return body + extra;
}

/** Builds (does not store) the next tweet; the caller appends it to the store. */
export function buildTweet(store: Store, r: Rng, spec: TweetSpec): SandboxTweet {
  const id = store.lastTweetId + 1;
  const main = spec.tokens[0];
  if (!main) throw new Error('a tweet needs at least one token');
  const type = spec.type ?? pickType(r);
  const views = Math.floor(Math.max(30, spec.kol.follower_count) * logUniform(r, 0.02, 3, 1.4));
  const fav = chance(r, 0.05) ? 0 : Math.floor(views * logUniform(r, 0.001, 0.06));
  const retweets = Math.floor(fav * logUniform(r, 0.02, 0.4));
  const pair = `${spec.kol.id}:${main.id}`;
  const isShill = !store.mentionedPairs.has(pair);
  store.mentionedPairs.add(pair);
  const first = store.nextHighlightId;
  store.nextHighlightId += spec.tokens.length;
  return {
    id,
    twitter_id: snowflake(spec.ms, id),
    content: spec.content ?? content(r, store, spec.tokens, type),
    tweetedMs: spec.ms,
    kolId: spec.kol.id,
    tokenIds: spec.tokens.map((t) => t.id),
    tweet_type: type,
    sentiment: spec.sentiment ?? pick(r, [-1, 0, 1, 1, 1]),
    bookmark_count: Math.floor(fav * logUniform(r, 0.01, 0.2)),
    reply_count: Math.floor(fav * logUniform(r, 0.05, 0.5)),
    retweet_count: retweets,
    favorite_count: fav,
    quote_count: Math.floor(retweets * logUniform(r, 0.05, 0.4)),
    view_count: views,
    photo_urls: chance(r, 0.25)
      ? Array.from({ length: int(r, 1, 2) }, () => `https://pbs.sandbox.invalid/media/${hex(r, 15)}.jpg`)
      : [],
    is_shill_tweet: isShill,
    tokenScore: spec.tokenScore ?? main.avg_score,
    kolScore: spec.kolScore ?? spec.kol.stat.ranking_score,
    last30_min_tweet_count: store.countTokenTweets(main.id, spec.ms - 30 * MINUTE, spec.ms + 1),
    firstHighlightId: first,
  };
}

export function priceAfterMantissa(s: Pick<Shill, 'priceInitMantissa' | 'multipliers'>, h: number): number {
  return Math.round(s.priceInitMantissa * (s.multipliers[h] ?? 0));
}

function makeShill(r: Rng, id: number, t: SandboxTweet, token: SandboxToken): Shill {
  const multipliers: number[] = [];
  let m = 1;
  const rugAt = chance(r, 0.12) ? int(r, 3, HORIZONS.length - 1) : -1;
  HORIZONS.forEach((_, i) => {
    m *= Math.exp(gauss(r) * (0.04 + i * 0.05) + 0.01);
    if (i === rugAt) m *= logUniform(r, 0.005, 0.08);
    multipliers.push(m);
  });
  const logs = multipliers.map((x) => Math.log(x));
  const clamp = (x: number) => round(Math.min(100, Math.max(0, x)), 2);
  const wps = clamp(50 + 15 * (logs[9] ?? 0));
  const cons = clamp((multipliers.filter((x) => x > 1).length / multipliers.length) * 100);
  const auc = clamp(50 + 12 * (logs.reduce((a, b) => a + b, 0) / logs.length));
  const priceInitMantissa = Math.max(1, Math.round(token.priceMantissa * logUniform(r, 0.3, 3)));
  return {
    id,
    kolId: t.kolId,
    tokenId: token.id,
    shillMs: t.tweetedMs,
    priceInitMantissa,
    priceScale: token.priceScale,
    multipliers,
    wins: multipliers.map((_, h) => priceAfterMantissa({ priceInitMantissa, multipliers }, h) > priceInitMantissa),
    weighted_performance_score: wps,
    consistency_score: cons,
    area_under_curve_score: auc,
    unified_performance_score: round((wps + cons + auc) / 3, 2),
    engagement: clamp(Math.log10(t.favorite_count + 1) * 22),
  };
}

/** Seeded history: tweets over the last 30 days, denser toward now, with one shill per first KOL/token mention. */
export function generateTweets(
  store: Store,
  r: Rng,
  count: number,
  edges: {
    cjk: SandboxToken;
    html: SandboxToken;
    rtl: SandboxKol;
    /** What the bot's examples name (examples.ts): mentioned regularly, by the example KOLs among others. */
    examples?: { tokens: readonly SandboxToken[]; kols: readonly SandboxKol[] };
  },
): SandboxTweet {
  const { tokens, kols, now } = store.data;
  const tokenOrder = shuffle(r, [...tokens]);
  const kolOrder = shuffle(r, [...kols]);
  const pickToken = zipfSampler(tokenOrder.length, 1.05);
  const pickKol = zipfSampler(kolOrder.length, 0.75);
  const oldest = [...tokens].sort((a, b) => a.createdMs - b.createdMs).slice(0, 20);
  const times = Array.from({ length: count }, () => now - 1000 - Math.floor(30 * DAY * r() ** 2.2)).sort(
    (a, b) => a - b,
  );
  const longIndex = Math.floor(count * 0.7);
  let longTweet: SandboxTweet | undefined;

  const tokenAt = (ms: number): SandboxToken => {
    for (let i = 0; i < 12; i++) {
      const t = tokenOrder[pickToken(r)] as SandboxToken;
      if (t.createdMs < ms) return t;
    }
    return pick(r, oldest);
  };

  times.forEach((ms, i) => {
    let kol = kolOrder[pickKol(r)] as SandboxKol;
    let main = tokenAt(ms);
    if (i % 97 === 13) main = edges.cjk;
    if (i % 89 === 7) main = edges.html;
    if (i % 71 === 5) kol = edges.rtl;
    const ex = edges.examples;
    if (ex?.tokens.length && i % 37 === 11) {
      const t = ex.tokens[Math.floor(i / 37) % ex.tokens.length]!;
      if (t.createdMs < ms) main = t;
    }
    if (ex?.kols.length && i % 29 === 3) kol = ex.kols[Math.floor(i / 29) % ex.kols.length]!;
    const list = [main];
    const extra = chance(r, 0.2) ? (chance(r, 0.25) ? 2 : 1) : 0;
    for (let j = 0; j < extra; j++) {
      const t = tokenAt(ms);
      if (!list.includes(t)) list.push(t);
    }
    const spec: TweetSpec = { kol, tokens: list, ms };
    if (i === longIndex) spec.content = longContent(r, main);
    const t = buildTweet(store, r, spec);
    if (t.is_shill_tweet) {
      const shill = makeShill(r, store.data.shills.length + 1, t, main);
      store.data.shills.push(shill);
      store.shillsByKol.get(kol.id)?.push(shill);
    }
    store.append(t, false);
    if (i === longIndex) longTweet = t;
  });
  store.rebuildIndexes();
  if (!longTweet) throw new Error('long tweet not generated');
  return longTweet;
}

function longContent(r: Rng, token: SandboxToken): string {
  const head = `Long thread on $${token.symbol} 🧵 (${token.address})\n\n`;
  const words = [
    'liquidity',
    'holders',
    'chart',
    'community',
    'dev',
    'roadmap',
    'volume',
    'whales',
    'narrative',
    'memes',
    '🚀',
    '📈',
  ];
  let s = head;
  while (s.length < 5000) s += `${pick(r, words)} `;
  // Exactly 5,000 UTF-16 units, ending on a full character.
  s = s.slice(0, 4999);
  return `${s}.`;
}

/** Totals on KOL records that depend on their tweets and shills. */
export function finishKols(store: Store): void {
  for (const k of store.data.kols) {
    const tweets = store.tweetsByKol.get(k.id) ?? [];
    const shills = store.shillsByKol.get(k.id) ?? [];
    k.stat.total_favorite = tweets.reduce((a, t) => a + t.favorite_count, 0);
    k.stat.total_reply = tweets.reduce((a, t) => a + t.reply_count, 0);
    k.stat.total_quote = tweets.reduce((a, t) => a + t.quote_count, 0);
    k.impression = tweets.reduce((a, t) => a + t.view_count, 0);
    k.stat.smart_follower_mention_count = Math.floor(k.smartFollowerIds.length * Math.min(1, tweets.length / 40));
    const n = shills.length;
    const rugged = (s: Shill) => (s.multipliers[10] ?? 1) < 0.1;
    const win = shills.filter((s) => s.wins[9]).length;
    const rug = shills.filter(rugged).length;
    const lose = shills.filter((s) => !s.wins[9] && !rugged(s)).length;
    k.stat.win_rate = n ? round(win / n, 4) : 0;
    k.stat.rug_rate = n ? round(rug / n, 4) : 0;
    k.stat.lose_rate = n ? round(lose / n, 4) : 0;
  }
}
