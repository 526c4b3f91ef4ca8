import { type Rng, chance, gauss, hex, int, logUniform, pick, round, shuffle, snowflake } from './prng.ts';
import type { KolStatistic, SandboxKol } from './types.ts';

const LABELS = [
  'alpha',
  'degen',
  'memecoin',
  'nft',
  'defi',
  'trader',
  'influencer',
  'whale',
  'researcher',
  'sniper',
  'dev',
  'kol',
];

const HEAD = [
  'crypto',
  'sol',
  'degen',
  'alpha',
  'moon',
  'whale',
  'chain',
  'based',
  'ape',
  'gem',
  'pump',
  'meme',
  'defi',
  'nft',
  'onchain',
  'lambo',
  'bag',
  'giga',
  'sniper',
  'trench',
  'bsc',
  'sui',
  'apt',
  'ser',
  'anon',
];
const TAIL = [
  'king',
  'lord',
  'hunter',
  'wizard',
  'chad',
  'guru',
  'caller',
  'maxi',
  'bro',
  'sensei',
  'trader',
  'labs',
  'capital',
  'research',
  'dao',
  'szn',
  'whisperer',
  'boy',
  'queen',
  'ninja',
];
const EMOJI = ['🐋', '🚀', '🎯', '🔥', '💎', '🐸', '⚡', '🧠', '🦍', '🌙'];
const INTL = [
  'クリプト太郎',
  'Ольга Крипто',
  '코인 헌터',
  '币圈老王',
  'Jürgen Blocklicht',
  'Zoë Müller-Ørsted',
  'Mateo Niño',
];
const BIOS = [
  'Early caller. Not financial advice.',
  'Trading memecoins since 2017 | DYOR',
  'On-chain sleuth. Charts, wallets, vibes.',
  'Building in public. Solana maxi.',
  'Full-time degen, part-time philosopher 🧠',
  'I post calls, you do your own research.',
  'NFA. DYOR. WAGMI.',
  '',
];
const DAY = 86_400_000;

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function username(r: Rng, taken: Set<string>): string {
  for (;;) {
    const head = pick(r, HEAD);
    const tail = pick(r, TAIL);
    const style = int(r, 0, 4);
    let u =
      style === 0
        ? head + tail
        : style === 1
          ? `${head}_${tail}`
          : style === 2
            ? cap(head) + cap(tail)
            : style === 3
              ? `${head}${tail}${int(r, 1, 999)}`
              : `0x${cap(head)}_`;
    u = u.slice(0, 15);
    if (!taken.has(u.toLowerCase())) {
      taken.add(u.toLowerCase());
      return u;
    }
  }
}

function displayName(r: Rng, u: string): string {
  if (chance(r, 0.08)) return pick(r, INTL);
  const base = u.replace(/^0x/, '').replace(/_/g, ' ').replace(/\d+$/, '').trim();
  const words =
    base
      .split(/(?=[A-Z])| /)
      .filter(Boolean)
      .map(cap)
      .join(' ') || u;
  return chance(r, 0.35) ? `${words} ${pick(r, EMOJI)}` : chance(r, 0.1) ? `${words} | NFA` : words;
}

function s100(r: Rng, mean = 50, sd = 18): number {
  return round(Math.min(100, Math.max(0, mean + gauss(r) * sd)), 2);
}

function uuid(r: Rng): string {
  const h = hex(r, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

function statistic(r: Rng): KolStatistic {
  const engagement = s100(r);
  const speed = s100(r);
  const accuracy = s100(r);
  const legality = s100(r, 70, 15);
  return {
    id: uuid(r),
    smart_follower_count: 0,
    smart_follower_mention_count: 0,
    total_favorite: 0,
    total_reply: 0,
    total_quote: 0,
    score: round((engagement + speed + accuracy + legality) / 4, 2),
    share_score: s100(r),
    list_score: s100(r),
    high_market_cap_score: s100(r),
    early_market_cap_score: s100(r),
    engagement_score: engagement,
    legality_score: legality,
    speed_score: speed,
    accuracy_score: accuracy,
    ranking_score: round(accuracy * 0.4 + speed * 0.2 + engagement * 0.2 + legality * 0.2, 2),
    user_ranking: 0,
    win_rate: 0,
    lose_rate: 0,
    rug_rate: 0,
    score_v2: s100(r),
    position_by_score_v2: 0,
    active_score: chance(r, 0.05) ? 0 : s100(r, 40, 25),
    like_score: s100(r),
    mention_score: s100(r),
  };
}

export function generateKols(r: Rng, count: number, now: number): { kols: SandboxKol[]; rtl: SandboxKol } {
  const taken = new Set<string>();
  const kols: SandboxKol[] = [];
  const rtlIndex = Math.floor(count / 3);
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const u = i === rtlIndex ? 'arabic_alpha' : username(r, taken);
    taken.add(u.toLowerCase());
    // Accounts from mid-2019 on, so snowflake ids have 19 digits (well above 2^53).
    const createdMs = Date.UTC(2019, 6, 1) + Math.floor(r() * (Date.UTC(2024, 6, 1) - Date.UTC(2019, 6, 1)));
    const discovered = Math.floor(now - logUniform(r, 20 * DAY, 600 * DAY));
    const labels = shuffle(r, [...LABELS])
      .slice(0, chance(r, 0.07) ? 0 : int(r, 1, 3))
      .sort();
    const followers = chance(r, 0.02) ? 0 : Math.floor(logUniform(r, 400, 3_500_000, 1.7));
    kols.push({
      id,
      username: u,
      twitter_id: snowflake(createdMs, int(r, 0, 4095)),
      avatar_url: `https://pbs.sandbox.invalid/profile_images/${snowflake(createdMs + DAY, id)}/${hex(r, 8)}_normal.jpg`,
      checkmark_type: pick(r, [0, 0, 0, 1, 1, 2]),
      display_name: i === rtlIndex ? '\u202Bمتداول العملات الرقمية\u202C @everyone' : displayName(r, u),
      follower_count: followers,
      following_count: chance(r, 0.04) ? 0 : Math.floor(logUniform(r, 20, 8_000, 1.3)),
      description: i === rtlIndex ? 'تحليل العملات الرقمية يوميًا @everyone @here' : pick(r, BIOS),
      labels: i === rtlIndex ? ['alpha', 'trader'] : labels,
      twitter_created_at: new Date(createdMs).toISOString(),
      discovered_by: pick(r, [0, 1, 1, 2]),
      twitter_status: chance(r, 0.03) ? 2 : 1,
      active_rank: 0,
      created_at: new Date(discovered).toISOString(),
      updated_at: new Date(discovered + Math.floor(r() * (now - discovered))).toISOString(),
      stat: statistic(r),
      smartFollowerIds: [],
      change_percent: chance(r, 0.1) ? 0 : round(gauss(r) * 8, 2),
      impression: 0,
    });
  }
  // Smart followers: bigger accounts are followed by more of the other KOLs.
  for (const k of kols) {
    const n = Math.min(count - 1, Math.floor((Math.sqrt(k.follower_count) / 40) * r() * 3));
    const others = shuffle(
      r,
      kols.filter((o) => o.id !== k.id).map((o) => o.id),
    ).slice(0, n);
    k.smartFollowerIds = others;
    k.stat.smart_follower_count = others.length;
  }
  rank(
    kols,
    (k) => k.stat.ranking_score,
    (k, i) => (k.stat.user_ranking = i),
  );
  rank(
    kols,
    (k) => k.stat.score_v2,
    (k, i) => (k.stat.position_by_score_v2 = i),
  );
  rank(
    kols,
    (k) => k.stat.active_score,
    (k, i) => (k.active_rank = i),
  );
  return { kols, rtl: kols[rtlIndex] as SandboxKol };
}

function rank(kols: SandboxKol[], key: (k: SandboxKol) => number, set: (k: SandboxKol, i: number) => void): void {
  [...kols]
    .sort((a, b) => key(b) - key(a) || a.id - b.id)
    .forEach((k, i) => {
      set(k, i + 1);
    });
}
