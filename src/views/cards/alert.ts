/**
 * An alert as a neutral View, built from the alert data the outbox stored only
 * when it is sent, in the destination's language. Upstream text stays plain
 * here; the platform renderers escape it and neuter mentions.
 */
import { CHAIN_LABEL, explorerTokenUrl } from '../../domain/chains.ts';
import { renderMessage } from '../../i18n/message.ts';
import type { AlertButton, AlertContent } from '../../store/outbox.ts';
import { mergedView } from './merged.ts';
import { digestView, renderedDigest } from './digest.ts';
import { noticeView } from './notice.ts';
import type { CardView, Field, LinkButton, View } from '../../domain/view.ts';
import { fmt, type T } from './lang.ts';

const TWEET_TEXT_MAX = 600;

/**
 * The stored buttons carry an English label (one entry serves every destination);
 * the words are the destination's, chosen by what the button does. The KOL
 * button's label is a handle and stays as stored.
 */
function buttonLabel(a: AlertButton, tr: T): string {
  if (a.command === 'token') return tr('alert.tokenCardButton');
  if (a.command === 'mute') return tr('alert.muteButton');
  return a.label;
}

/** `followup`: the call's latest line (views/cards/calls.ts), shown above the alert when it is edited. */
export function alertView(c: AlertContent, tr: T, followup?: string): View {
  const { compact, int, pct, score, usd } = fmt(tr);
  if (c.kind === 'notice') {
    if ('event' in c) return noticeView(c.event, tr);
    return { kind: 'text', text: c.skipped !== undefined ? tr('alert.skipped', { n: int(c.skipped) }) : c.text };
  }
  // Delivery renders merged entries itself (with the chat's time zone and the multiples); this is the fallback.
  if (c.kind === 'merged') return mergedView(c, tr);
  if (c.kind === 'followup') return { kind: 'text', text: followup ?? '' };
  // Delivery renders digests itself (with their picture, src/pictures/digest.ts); this is the card alone.
  if (c.kind === 'digest') return 'view' in c ? renderedDigest(c.view, c.picture) : digestView(c.data, tr);
  const names = (kols: readonly { username: string }[]) => kols.map((k) => `@${k.username}`).join(', ');
  if (c.kind === 'more') return { kind: 'text', text: tr('alert.alsoShilled', { names: names(c.kols) }) };
  const t = c.token;
  const first = c.kols[0]!;
  const who =
    c.kols.length === 1
      ? `${first.displayName} (@${first.username})`
      : tr('alert.kols', { n: int(c.kols.length), names: names(c.kols) });
  const fields: Field[] = [
    { name: tr('alert.tokenScore'), value: score(t.score), inline: true },
    { name: tr('alert.mcapLiq'), value: `${usd(t.marketCap)} / ${usd(t.liquidity ?? null)}`, inline: true },
    {
      name: tr('alert.change'),
      value: `${pct(t.change1h, 'percent', { sign: true })} / ${pct(t.change24h, 'percent', { sign: true })}`,
      inline: true,
    },
    ...c.kols.slice(0, 5).map(
      (k): Field => ({
        name: `@${k.username} · ${k.followers === null ? tr('alert.followersUnknown') : tr('alert.followers', { n: compact(k.followers) })} · ${tr('alert.kolScore', { score: k.score === null ? tr('alert.unknown') : score(k.score) })}`,
        value: [
          k.text.length > TWEET_TEXT_MAX ? `${k.text.slice(0, TWEET_TEXT_MAX)}…` : k.text,
          '\n',
          { link: tr('alert.openOnX'), url: k.tweetUrl },
        ],
      }),
    ),
  ];
  if (c.kols.length > 5) fields.push({ name: tr('alert.andMore'), value: names(c.kols.slice(5)) });
  const links: LinkButton[] = [
    { label: tr('alert.tweet'), url: first.tweetUrl },
    { label: tr('alert.explorer'), url: explorerTokenUrl(t.chain, t.address) },
    ...(c.links ?? []),
  ];
  // Alerts stored by this build carry their checks; older ones only the English line.
  const said = c.checks?.map((m) => renderMessage(tr, m));
  // A test alert's first check is its verdict: "Sample tweet; …: token score 82 >= 70, …".
  const reason = !said ? c.reason : c.test ? `${said[0]}: ${said.slice(1).join(', ')}` : said.join(', ');
  const card: CardView = {
    kind: 'card',
    title: `${c.test ? tr('alert.test') : ''}${tr('alert.title', { symbol: t.symbol, who })}`,
    url: first.tweetUrl,
    description: [
      ...(followup ? [{ b: followup }, '\n\n'] : []),
      { b: `${t.name} (${t.symbol})` },
      `${tr('alert.on', { chain: CHAIN_LABEL[t.chain] })}\n`,
      { code: t.address },
      `\n${c.test ? '' : tr('alert.why')}${reason}`,
    ],
    fields,
    footer: c.test ? tr('alert.testFooter') : tr('alert.footer'),
    colour: 'brand',
    links,
    actions: c.actions.map((a) => ({ ...a, label: buttonLabel(a, tr) })),
  };
  return card;
}
