/** The KOL card: table row (operation 9), scores (6) and win rates by window (4). */
import type { KolScore, KolTokensResult } from '../../api/index.ts';
import { type ResolvedKol, kolRef } from '../../core/resolve.ts';
import type { CardView, Field, Span } from '../../domain/view.ts';
import { xProfileUrl, xUserIdUrl } from './common.ts';
import { fmt, type T } from './lang.ts';
import { WINDOWS } from './windows.ts';

export interface KolCardInput {
  readonly kol: ResolvedKol;
  readonly score: KolScore;
  readonly momentum: Pick<KolTokensResult, 'summary' | 'total'>;
}

/** Win rates are fractions (0.52 = 52%) in every operation that reports them. */
export function winRateLine(summary: Readonly<Record<string, number | string>>, t: T): string {
  const { pct } = fmt(t);
  return WINDOWS.map((w) => `${w.label} ${pct(summary[w.summaryKey], 'fraction', { decimals: 0 })}`).join(' · ');
}

export function kolCard({ kol, score: s, momentum }: KolCardInput, t: T): CardView {
  const { compact, int, pct, score } = fmt(t);
  const row = kol.row;
  const account = kol.account;
  const f = (name: string, value: string, inline = true): Field => ({ name, value, inline });
  const fields: Field[] = [];
  // X followers are in the win-rate table's account record (2.4), not in the KOL table row.
  if (account) fields.push(f(t('kolCard.followers'), compact(account.follower_count)));
  if (row) {
    fields.push(
      f(t('kolCard.rank'), `#${int(row.user_ranking)}`),
      f(t('kolCard.smartFollowers'), compact(row.sm_follower)),
      f(t('kolCard.tokens'), int(row.total_token)),
      f(t('kolCard.mentions'), compact(row.mention)),
      f(t('kolCard.impressions'), compact(row.impression)),
      f(t('kolCard.winRug'), `${pct(row.winrate, 'fraction')} / ${pct(row.rug_rate, 'fraction')}`),
    );
  }
  fields.push(
    f(t('kolCard.score'), score(s.score)),
    f(t('kolCard.scoreV2'), `${score(s.score_v2)} (#${int(s.position_by_score_v2)})`),
    f(t('kolCard.shilled'), int(s.num_shill_tokens)),
    f(t('kolCard.accuracySpeed'), `${score(s.accuracy_score)} · ${score(s.speed_score)}`),
    f(t('kolCard.engagementLegality'), `${score(s.engagement_score)} · ${score(s.legality_score)}`),
    f(t('kolCard.active'), score(s.active_score)),
    f(
      t('kolCard.winRateAfter', { count: momentum.total, n: int(momentum.total) }),
      momentum.total > 0 ? winRateLine(momentum.summary, t) : t('kolCard.noneCounted'),
      false,
    ),
  );
  const description: Span[] = kol.username ? [{ b: `@${kol.username}` }] : [t('kolCard.noName', { id: kol.xUserId })];
  const labels = row?.labels.length ? row.labels : (account?.labels ?? []);
  if (labels.length) description.push(` · ${labels.join(', ')}`);
  const url = kol.username ? xProfileUrl(kol.username) : xUserIdUrl(kol.xUserId);
  const ref = kolRef(kol);
  return {
    kind: 'card',
    title:
      row?.display_name || account?.display_name || (kol.username ? `@${kol.username}` : t('kolCard.nameNotFound')),
    url,
    description,
    fields,
    ...(row?.avatar ? { thumbnailUrl: row.avatar } : {}),
    colour: 'brand',
    links: [{ label: t('kolCard.xProfile'), url }],
    actions: [
      { label: t('kolCard.tokensButton'), command: 'momentum', options: { kol: ref } },
      { label: t('kolCard.mindmapButton'), command: 'kolmap', options: { kol: ref } },
    ],
  };
}
