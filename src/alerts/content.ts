/**
 * An alert as data: stored in the outbox (so it survives a restart unchanged)
 * and turned into a neutral View only when it is sent. Upstream text stays
 * plain here; the platform renderers escape it and neuter mentions.
 */
import { CHAIN_LABEL, explorerTokenUrl } from '../core/chains.ts';
import type { ChainId } from '../api/chains.ts';
import { compact, pct, score, usd } from '../views/format.ts';
import type { Action, CardView, Field, LinkButton, View } from '../views/model.ts';

export interface AlertKol {
  readonly username: string;
  readonly displayName: string;
  /** null: unknown (shown as such, never as 0). */
  readonly followers: number | null;
  readonly score: number | null;
  readonly tweetUrl: string;
  readonly text: string;
  readonly tweetedAt: string;
}

export interface AlertToken {
  readonly name: string;
  readonly symbol: string;
  readonly chain: ChainId;
  readonly address: string;
  readonly score: number;
  /** At alert time (operation 2); null when it could not be read. */
  readonly marketCap: number | null;
  /** Absent in entries queued before liquidity was shown. */
  readonly liquidity?: number | null;
  readonly change1h: number | null;
  readonly change24h: number | null;
}

export type AlertContent =
  | {
      readonly kind: 'alert';
      readonly token: AlertToken;
      /** One or more KOLs that shilled the token within the cooldown, oldest first. */
      readonly kols: readonly AlertKol[];
      readonly reason: string;
      /** Button ids prepared once per token for every destination (token card, KOL card, mute). */
      readonly actions: readonly Action[];
      readonly test?: boolean;
    }
  | { readonly kind: 'notice'; readonly text: string }
  /**
   * More KOLs shilled a token already alerted to this destination within its
   * cooldown: the earlier alert (entry `of`) is edited to name them all.
   */
  | { readonly kind: 'more'; readonly of: string; readonly kols: readonly AlertKol[] };

/** The earlier alert's KOLs and the new ones, each named once, oldest first. */
export function mergeKols(a: readonly AlertKol[], b: readonly AlertKol[]): AlertKol[] {
  const seen = new Set(a.map((k) => k.username.toLowerCase()));
  return [...a, ...b.filter((k) => !seen.has(k.username.toLowerCase()) && seen.add(k.username.toLowerCase()))];
}

const TWEET_TEXT_MAX = 600;

export function alertView(c: AlertContent): View {
  if (c.kind === 'notice') return { kind: 'text', text: c.text };
  if (c.kind === 'more') return { kind: 'text', text: `Also shilled by ${c.kols.map((k) => `@${k.username}`).join(', ')}` };
  const t = c.token;
  const first = c.kols[0]!;
  const who =
    c.kols.length === 1
      ? `${first.displayName} (@${first.username})`
      : `${c.kols.length} KOLs: ${c.kols.map((k) => `@${k.username}`).join(', ')}`;
  const fields: Field[] = [
    { name: 'Token score', value: score(t.score), inline: true },
    { name: 'Market cap / liquidity', value: `${usd(t.marketCap)} / ${usd(t.liquidity ?? null)}`, inline: true },
    { name: 'Change 1h / 24h', value: `${pct(t.change1h, 'percent', { sign: true })} / ${pct(t.change24h, 'percent', { sign: true })}`, inline: true },
    ...c.kols.slice(0, 5).map(
      (k): Field => ({
        name: `@${k.username} · ${k.followers === null ? 'followers unknown' : `${compact(k.followers)} followers`} · KOL score ${k.score === null ? 'unknown' : score(k.score)}`,
        value: [k.text.length > TWEET_TEXT_MAX ? `${k.text.slice(0, TWEET_TEXT_MAX)}…` : k.text, '\n', { link: 'Open on X', url: k.tweetUrl }],
      }),
    ),
  ];
  if (c.kols.length > 5) fields.push({ name: 'And more', value: c.kols.slice(5).map((k) => `@${k.username}`).join(', ') });
  const links: LinkButton[] = [
    { label: 'Tweet', url: first.tweetUrl },
    { label: 'Explorer', url: explorerTokenUrl(t.chain, t.address) },
  ];
  const card: CardView = {
    kind: 'card',
    title: `${c.test ? '[TEST] ' : ''}${t.symbol} shilled by ${who}`,
    url: first.tweetUrl,
    description: [{ b: `${t.name} (${t.symbol})` }, ` on ${CHAIN_LABEL[t.chain]}\n`, { code: t.address }, `\n${c.test ? '' : 'Why: '}${c.reason}`],
    fields,
    footer: c.test ? 'Test alert with a sample tweet: this is how alerts will look here.' : 'kolradar alert',
    colour: 'brand',
    links,
    actions: c.actions,
  };
  return card;
}
