/**
 * A digest as a neutral card, from the figures the outbox stored, in the
 * destination's language at the moment it is sent (as alerts are): a chat that
 * changed its language between the scheduled minute and the send reads the new one.
 */
import { clockText, localTime } from '../../domain/zoned.ts';
import { HIT_MULTIPLE } from '../../domain/score.ts';
import type { CardView, Field, Picture } from '../../domain/view.ts';
import type { DigestBest, DigestData, DigestTokens, RenderedCard, StoredPicture } from '../../store/outbox.ts';
import type { CallsChartInput } from '../charts/index.ts';
import { fmt, type Formats, type T } from './lang.ts';

type F = Pick<Formats, 'usd' | 'pct' | 'int'>;

/** A multiple as the digest writes it, the same in every language (as /calls writes it). */
const x = (m: number) => `${m >= 10 ? m.toFixed(0) : m.toFixed(2)}x`;
const best = (b: DigestBest) => `${b.symbol} ${x(b.multiple)}`;

/** The card without its picture (src/pictures/digest.ts adds it). */
export function digestView(d: DigestData, t: T, f: F = fmt(t)): CardView {
  const fields: Field[] = [tokensField(d.tokens, t, f)];
  fields.push({
    name: t('digest.kolsOver', { window: d.weekly ? '7d' : '24h', min: f.int(d.kols.min) }),
    value: d.kols.rows
      ? d.kols.rows
          .map(
            (k) => `@${k.username} · ${t('digest.winRateOf', { rate: f.pct(k.rate, 'fraction'), n: f.int(k.tokens) })}`,
          )
          .join('\n') || t('digest.none')
      : t('digest.unavailable'),
  });
  fields.push({ name: t('digest.calls'), value: callsLine(d, t, f) });
  if (d.callers) {
    const rows = d.callers.rows;
    fields.push({
      name: t('digest.topCallers', { min: f.int(d.callers.min) }),
      value: rows
        ? rows
            .map((r) =>
              t('digest.callerLine', {
                name: r.name,
                rate: f.pct(r.hitRate, 'fraction'),
                n: f.int(r.calls),
                best: best(r.best),
              }),
            )
            .join('\n') || t('digest.none')
        : t('digest.unavailable'),
    });
  }
  const date = (at: number) => {
    const p = localTime(at, d.tz);
    return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')} ${clockText(p.hour * 60 + p.minute)}`;
  };
  return {
    kind: 'card',
    title: t(d.weekly ? 'digest.titleWeekly' : 'digest.titleDaily'),
    ...(d.late
      ? {
          description: [
            t('digest.late', { time: `${date(d.at)} ${d.tz}` }),
            ...(d.skipped > 0 ? [t('digest.skipped', { count: d.skipped, n: String(d.skipped) })] : []),
          ].join(' '),
        }
      : {}),
    fields,
    footer: t('digest.footer', { from: date(d.from), to: date(d.at), tz: d.tz }),
    colour: d.late ? 'warn' : 'brand',
  };
}

/** A digest stored rendered by an older build (schema version 13): the card as it was written. */
export function renderedDigest(view: RenderedCard, picture?: StoredPicture): CardView {
  return picture ? { ...view, picture: pictureOf(picture) } : view;
}

const pictureOf = (p: StoredPicture): Picture => ({ png: Buffer.from(p.png64, 'base64'), name: p.name, alt: p.alt });

/** The calls chart's input: the period's calls with a known peak and now, best first; none without any. */
export function digestChart(d: DigestData, t: T, f: F = fmt(t)): CallsChartInput | undefined {
  if (d.calls.state !== 'scored' || !d.calls.rows.length) return undefined;
  return {
    title: t('digest.calls'),
    subtitle: callsLine(d, t, f),
    rows: d.calls.rows.map((r) => ({
      label: `${r.symbol} · @${r.kol}`,
      peak: r.peak,
      now: r.now,
      figures: `${x(r.peak)} · ${r.now === 0 ? t('calls.rugged') : x(r.now)}`,
    })),
    threshold: HIT_MULTIPLE,
    legend: { peak: t('calls.legendPeak'), now: t('calls.legendNow') },
  };
}

function callsLine(d: DigestData, t: T, f: F): string {
  const c = d.calls;
  if (c.state === 'off') return t('digest.unavailable');
  if (c.state === 'none') return t('digest.callsNone');
  const line = t('digest.callsLine', {
    calls: c.calls,
    hit: c.hitRate === null ? '-' : f.pct(c.hitRate, 'fraction'),
    best: c.best ? best(c.best) : t('calls.nothingMoved'),
  });
  return c.partial
    ? `${line}\n${t('calls.nowPartial', { live: f.int(c.partial.live), tokens: f.int(c.partial.tokens) })}`
    : line;
}

function tokensField(tokens: DigestTokens, t: T, f: F): Field {
  if (tokens.source === 'seen')
    return {
      name: t('digest.tokensSeen'),
      value:
        tokens.rows
          .map((s) => `${s.symbol} · ${s.chain} · ${t('digest.tweets', { count: s.tweets, n: f.int(s.tweets) })}`)
          .join('\n') || t('digest.none'),
    };
  return {
    name: t('digest.tokensRanking'),
    value: tokens.rows
      ? tokens.rows
          .map(
            (i) =>
              `${i.symbol}${i.fresh ? ` (${t('digest.newToken')})` : ''} · ${t('digest.mentions', { count: i.mentions, n: f.int(i.mentions) })} · ${f.usd(i.marketCap)}`,
          )
          .join('\n') || t('digest.none')
      : t('digest.unavailable'),
  };
}
