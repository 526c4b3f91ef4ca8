/**
 * Several alerts in one message (a burst, or what quiet hours held): one line
 * each, with a token-card button for the first few.
 */
import { CHAIN_LABEL, tokenKeyOf } from '../../domain/chains.ts';
import { clockText, localTime } from '../../domain/zoned.ts';
import type { T } from '../../i18n/index.ts';
import type { AlertContent, MergedItem } from '../../store/outbox.ts';
import { usd } from '../../i18n/english.ts';
import type { Formats } from '../../i18n/format.ts';
import type { Action, CardView, Span } from '../../domain/view.ts';

/** Lines listed; the rest are counted (the renderers cut longer text anyway). */
const LINES_MAX = 50;
/** Two rows of buttons on either platform. */
const CARD_BUTTONS_MAX = 10;

export interface MergedExtras {
  /** Time zone the times are shown in (the quiet hours'); UTC otherwise. */
  readonly tz?: string;
  /** Multiple of the market cap since the alert, by token key (call tracking), when known. */
  readonly multiples?: ReadonlyMap<string, number>;
  /** Number formats of the chat's language; English otherwise. */
  readonly fmt?: Pick<Formats, 'usd'>;
}

type Merged = Extract<AlertContent, { kind: 'merged' }>;

export function mergedView(c: Merged, t: T, x: MergedExtras = {}): CardView {
  const count = c.items.length;
  const tz = x.tz ?? 'UTC';
  const lines: Span[] = [];
  c.items.slice(0, LINES_MAX).forEach((it, i) => {
    lines.push(
      ...line(it, t, tz, c.why === 'quiet', x.multiples, x.fmt?.usd ?? usd),
      i < Math.min(count, LINES_MAX) - 1 ? '\n' : '',
    );
  });
  if (count > LINES_MAX) lines.push('\n', t('merged.more', { count: count - LINES_MAX }));
  const actions: Action[] = c.items
    .flatMap((it) => (it.card ? [{ ...it.card, label: it.token.symbol }] : []))
    .slice(0, CARD_BUTTONS_MAX);
  return {
    kind: 'card',
    title: c.why === 'quiet' ? t('merged.quietTitle', { count }) : t('merged.burstTitle', { count }),
    description: lines,
    footer: c.why === 'quiet' ? t('merged.quietFooter', { tz }) : t('merged.burstFooter'),
    colour: 'brand',
    actions,
  };
}

function line(
  it: MergedItem,
  t: T,
  tz: string,
  withTime: boolean,
  multiples: ReadonlyMap<string, number> | undefined,
  money: (n: number | null) => string,
): Span[] {
  const kols = it.kols.map((k) => `@${k}`).join(', ');
  const l = localTime(it.at, tz);
  const multiple = multiples?.get(tokenKeyOf(it.token.chain, it.token.address));
  return [
    '• ',
    { b: it.token.symbol },
    ` ${CHAIN_LABEL[it.token.chain]} · ${t('merged.by', { kols })} · ${t('merged.mcap', { value: money(it.token.marketCap) })}`,
    ...(withTime ? [` · ${clockText(l.hour * 60 + l.minute)}`] : []),
    ...(multiple !== undefined ? [` · ${t('merged.since', { multiple: `${multiple.toFixed(2)}x` })}`] : []),
  ];
}
