/**
 * From an accepted alert to a call: what delivery records when a platform
 * took the message, and the follow-up points a destination asked for.
 */
import type { Call } from '../../store/calls.ts';
import type { AlertContent, OutboxEntry } from '../../store/outbox.ts';
import type { Subscription } from '../../store/subscriptions.ts';
import { threadPart } from '../../domain/destination.ts';

/** Follow-up points (minutes after the alert) when a destination says nothing: 1 h, 6 h, 24 h. */
export const DEFAULT_FOLLOWUPS: readonly number[] = Object.freeze([60, 360, 1440]);

/** The longest follow-up point a destination may ask for: 30 days, the default history kept. */
export const MAX_FOLLOWUP_MINUTES = 30 * 1440;

export function followupsOf(sub: Pick<Subscription, 'filters'> | undefined): readonly number[] {
  return sub?.filters.followups ?? DEFAULT_FOLLOWUPS;
}

const tweetIdOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

export function callOf(
  e: OutboxEntry,
  content: Extract<AlertContent, { kind: 'alert' }>,
  messageId: string,
  points: readonly number[],
  at: number,
): Call {
  const t = content.token;
  return {
    id: e.id,
    subId: e.subId,
    platform: e.platform,
    chatId: e.chatId,
    ...threadPart(e.threadId),
    messageId,
    token: { chain: t.chain, address: t.address, symbol: t.symbol, name: t.name },
    kols: [...new Set(content.kols.map((k) => k.username.toLowerCase()))],
    tweetIds: content.kols.map((k) => tweetIdOf(k.tweetUrl)),
    at,
    marketCap: t.marketCap,
    liquidity: t.liquidity ?? null,
    points: [...points].sort((a, b) => a - b),
    next: 0,
    samples: [],
    peak: t.marketCap,
    content,
  };
}

/** "1h,6h,24h" → [60, 360, 1440]; "off" → []; undefined when unreadable (a point below 1 min or above 30 days). */
export function parseFollowups(text: string, parse: (s: string) => number | undefined): number[] | undefined {
  const s = text.trim().toLowerCase();
  if (s === 'off' || s === 'none' || s === 'no') return [];
  const parts = s.split(/[\s,]+/).filter(Boolean);
  if (!parts.length || parts.length > 10) return undefined;
  const out = new Set<number>();
  for (const p of parts) {
    const ms = parse(p);
    if (ms === undefined || ms < 60_000 || ms > MAX_FOLLOWUP_MINUTES * 60_000) return undefined;
    out.add(Math.round(ms / 60_000));
  }
  return [...out].sort((a, b) => a - b);
}

/** Minutes as a `/subscribe` value: 1440 → "1d", 360 → "6h", 90 → "90m". */
export function followupValue(points: readonly number[]): string {
  if (!points.length) return 'off';
  return points.map((m) => (m % 1440 === 0 ? `${m / 1440}d` : m % 60 === 0 ? `${m / 60}h` : `${m}m`)).join(',');
}
