/**
 * From a stored entry to the View a platform renders, in the destination's
 * language, at send time: what is stored is data, so a restart or a language
 * change never sends a stale text.
 */
import type { MergedItem, OutboxEntry } from '../../store/outbox.ts';
import { alertView } from '../../views/cards/alert.ts';
import { mergedView } from '../../views/cards/merged.ts';
import { renderedDigest } from '../../views/cards/digest.ts';
import { digestCard } from '../../pictures/digest.ts';
import type { View } from '../../domain/view.ts';
import { tokenKeyOf } from '../../domain/chains.ts';
import { translator } from '../../i18n/index.ts';
import { formats } from '../../i18n/format.ts';
import { languageOf, localeOf, type DeliveryState } from './state.ts';
import type { Subscription } from '../../store/subscriptions.ts';
import type { Posting } from './types.ts';

export async function viewOf(s: DeliveryState, e: OutboxEntry): Promise<View> {
  if (e.content.kind === 'digest') {
    const c = e.content;
    if ('view' in c) return renderedDigest(c.view, c.picture);
    const locale = await localeOf(s, e);
    return digestCard(c.data, translator(locale), formats(locale), s.o.charts, s.o.log);
  }
  if (e.content.kind !== 'merged') return alertView(e.content, await languageOf(s, e));
  const [locale, sub] = await Promise.all([localeOf(s, e), s.o.subscriptions.get(e.subId)]);
  const c = e.content;
  return mergedView(c, translator(locale), {
    fmt: formats(locale),
    ...(sub?.quiet ? { tz: sub.quiet.tz } : {}),
    ...(c.why === 'quiet' ? { multiples: await multiples(s, c.items) } : {}),
  });
}

/** How far each held alert's token moved since its alert: market cap now over then. Best effort. */
export async function multiples(s: DeliveryState, items: readonly MergedItem[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!s.o.marketNow) return out;
  try {
    const caps = await s.o.marketNow(items.map((i) => ({ chain: i.token.chain, address: i.token.address })));
    for (const i of items) {
      const k = tokenKeyOf(i.token.chain, i.token.address);
      const nowCap = caps.get(k)?.marketCap;
      if (nowCap != null && i.token.marketCap != null && i.token.marketCap > 0 && !out.has(k))
        out.set(k, nowCap / i.token.marketCap);
    }
  } catch (err) {
    s.o.log.debug({ err }, 'market caps for a quiet-hours summary not read');
  }
  return out;
}

/** A summary the admin may ask to be pinged on: a merged burst, quiet hours' summary, a digest. */
const isSummary = (e: OutboxEntry) => e.content.kind === 'merged' || e.content.kind === 'digest';

/** How this entry goes out at its destination: a ping and a forum title only for a new alert. */
export function postingOf(e: OutboxEntry, sub: Subscription | undefined, locale?: string): Posting | undefined {
  if (!sub) return undefined;
  const p = sub.posting ?? {};
  const alert = e.content.kind === 'alert' ? e.content : undefined;
  return {
    ...(p.pingRole && ((alert && !alert.test) || (p.pingSummaries && isSummary(e))) ? { ping: p.pingRole } : {}),
    ...(p.publish ? { publish: true } : {}),
    ...(p.forum ? { forum: p.forum } : {}),
    ...(alert ? { title: `${alert.token.symbol ? `$${alert.token.symbol} ` : ''}${alert.token.name}`.trim() } : {}),
    // Speed is bought for new alerts only (README, Paid broadcasts); a test alert is one chat's, never worth Stars.
    ...(alert && !alert.test ? { mayPay: true as const } : {}),
    ...(p.personal ? { dm: true } : {}),
    ...(locale ? { locale } : {}),
  };
}
