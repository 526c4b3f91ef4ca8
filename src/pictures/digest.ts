/**
 * A digest's card with its calls chart, drawn when it is sent (in the chat's
 * language of that moment). Alert delivery and the digest builder draw it;
 * the card and the chart's input are the views' (views/cards/digest.ts).
 */
import type { Logger } from 'pino';
import type { ChartPool } from '../domain/charts.ts';
import type { CardView } from '../domain/view.ts';
import type { DigestData } from '../store/outbox.ts';
import { digestChart, digestView } from '../views/cards/digest.ts';
import { fmt, type Formats, type T } from '../views/cards/lang.ts';

/** The card with the calls chart; without it where no pool runs or drawing failed. Never throws for the picture. */
export async function digestCard(
  d: DigestData,
  t: T,
  f: Pick<Formats, 'usd' | 'pct' | 'int'> = fmt(t),
  charts?: ChartPool,
  log?: Pick<Logger, 'warn'>,
): Promise<CardView> {
  const view = digestView(d, t, f);
  const input = digestChart(d, t, f);
  if (!input || !charts) return view;
  try {
    const png = await charts.draw('calls', input);
    return { ...view, picture: { png, name: 'digest.png', alt: t('digest.calls') } };
  } catch (err) {
    // A picture is decoration: the digest goes without it.
    log?.warn({ err }, 'digest picture not drawn');
    return view;
  }
}
