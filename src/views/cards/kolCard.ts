/** The KOL card: table row (operation 9), scores (6) and win rates by window (4). */
import type { KolScore, KolTokensResult } from '../../api/index.ts';
import { type ResolvedKol, kolRef } from '../../core/resolve.ts';
import { compact, int, pct, score } from '../format.ts';
import type { CardView, Field, Span } from '../model.ts';
import { xProfileUrl, xUserIdUrl } from './common.ts';
import { WINDOWS } from './windows.ts';

export interface KolCardInput {
  readonly kol: ResolvedKol;
  readonly score: KolScore;
  readonly momentum: Pick<KolTokensResult, 'summary' | 'total'>;
}

/** Win rates are fractions (0.52 = 52%) in every operation that reports them. */
export function winRateLine(summary: Readonly<Record<string, number | string>>): string {
  return WINDOWS.map((w) => `${w.label} ${pct(summary[w.summaryKey], 'fraction', { decimals: 0 })}`).join(' · ');
}

export function kolCard({ kol, score: s, momentum }: KolCardInput): CardView {
  const row = kol.row;
  const account = kol.account;
  const f = (name: string, value: string, inline = true): Field => ({ name, value, inline });
  const fields: Field[] = [];
  // X followers are in the win-rate table's account record (2.4), not in the KOL table row.
  if (account) fields.push(f('Followers', compact(account.follower_count)));
  if (row) {
    fields.push(
      f('Rank', `#${int(row.user_ranking)}`),
      f('Smart followers', compact(row.sm_follower)),
      f('Tokens', int(row.total_token)),
      f('Mentions', compact(row.mention)),
      f('Impressions', compact(row.impression)),
      f('Win / rug rate', `${pct(row.winrate, 'fraction')} / ${pct(row.rug_rate, 'fraction')}`),
    );
  }
  fields.push(
    f('Score', score(s.score)),
    f('Score v2', `${score(s.score_v2)} (#${int(s.position_by_score_v2)})`),
    f('Shilled tokens', int(s.num_shill_tokens)),
    f('Accuracy · speed', `${score(s.accuracy_score)} · ${score(s.speed_score)}`),
    f('Engagement · legality', `${score(s.engagement_score)} · ${score(s.legality_score)}`),
    f('Active', score(s.active_score)),
    f(`Win rate after a shill (${int(momentum.total)} tokens)`, momentum.total > 0 ? winRateLine(momentum.summary) : 'No tokens counted yet.', false),
  );
  const description: Span[] = kol.username
    ? [{ b: `@${kol.username}` }]
    : [`No name found for X user id ${kol.xUserId}: the win-rate and KOL tables do not list it (or could not be read just now), so only its scores are shown.`];
  const labels = row?.labels.length ? row.labels : (account?.labels ?? []);
  if (labels.length) description.push(` · ${labels.join(', ')}`);
  const url = kol.username ? xProfileUrl(kol.username) : xUserIdUrl(kol.xUserId);
  const ref = kolRef(kol);
  return {
    kind: 'card',
    title: row?.display_name || account?.display_name || (kol.username ? `@${kol.username}` : 'KOL name not found'),
    url,
    description,
    fields,
    ...(row?.avatar ? { thumbnailUrl: row.avatar } : {}),
    colour: 'brand',
    links: [{ label: 'X profile', url }],
    actions: [
      { label: 'Tokens', command: 'momentum', options: { kol: ref } },
      { label: 'Mindmap', command: 'kolmap', options: { kol: ref } },
    ],
  };
}
