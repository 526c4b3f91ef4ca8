/**
 * An alert as a neutral View, built from the alert data the outbox stored only
 * when it is sent. Upstream text stays plain here; the platform renderers
 * escape it and neuter mentions.
 */
import { CHAIN_LABEL, explorerTokenUrl } from '../../core/chains.ts';
import type { AlertContent } from '../../store/outbox.ts';
import { compact, pct, score, usd } from '../format.ts';
import { DEFAULT_LOCALE, translator } from '../../i18n/index.ts';
import { mergedView } from './merged.ts';
import type { CardView, Field, LinkButton, View } from '../model.ts';

const TWEET_TEXT_MAX = 600;

/** `followup`: the call's latest line (views/cards/calls.ts), shown under the alert when it is edited. */
export function alertView(c: AlertContent, followup?: string): View {
  if (c.kind === 'notice') return { kind: 'text', text: c.text };
  // Delivery renders merged entries in the chat's language itself; this is the fallback.
  if (c.kind === 'merged') return mergedView(c, translator(DEFAULT_LOCALE));
  if (c.kind === 'followup') return { kind: 'text', text: followup ?? '' };
  if (c.kind === 'digest') return { ...(c.view as unknown as CardView), ...(c.picture ? { picture: { png: Buffer.from(c.picture.png64, 'base64'), name: c.picture.name, alt: c.picture.alt } } : {}) };
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
    description: [
      ...(followup ? [{ b: followup }, '\n\n'] : []),
      { b: `${t.name} (${t.symbol})` },
      ` on ${CHAIN_LABEL[t.chain]}\n`,
      { code: t.address },
      `\n${c.test ? '' : 'Why: '}${c.reason}`,
    ],
    fields,
    footer: c.test ? 'Test alert with a sample tweet: this is how alerts will look here.' : 'kolradar alert',
    colour: 'brand',
    links,
    actions: c.actions,
  };
  return card;
}
