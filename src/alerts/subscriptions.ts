/**
 * The one way a subscription changes. Commands (subscribe, pause, mute...),
 * delivery (a destination gone or moved) and the adapters (the bot removed
 * from a server or a chat, a group upgraded) all come through here, so every
 * change stamps `updatedAt` and bumps the store's version the same way, and a
 * rule such as "a moved destination keeps a pointer" holds wherever the move
 * was noticed. Reads go to the SubscriptionStore directly.
 */
import {
  subscriptionId,
  type AlertFilters,
  type DestinationPlatform,
  type DigestSettings,
  type QuietHours,
  type FeedPosition,
  type Subscription,
  type SubscriptionStore,
} from '../store/subscriptions.ts';
import { DEFAULT_FILTERS } from './filters.ts';
import { threadPart } from '../domain/destination.ts';

/** Paused "forever" is stored as a far date: JSON has no Infinity. */
export const FOREVER = 8_640_000_000_000_000;

export interface Destination {
  readonly platform: DestinationPlatform;
  readonly chatId: string;
  /** A forum topic of the chat; absent: the chat itself. */
  readonly threadId?: string | undefined;
  readonly isGroup: boolean;
}

/**
 * Turns alerts on for a destination, or changes its filters. A new (or revived)
 * subscription starts at the head of the feed (`head()`, asked only then): no
 * flood of old tweets. `updated` is true when alerts were already on.
 */
export async function subscribe(
  subs: SubscriptionStore,
  to: Destination,
  by: string,
  filtersFrom: (current: AlertFilters) => AlertFilters,
  head: () => Promise<FeedPosition | null>,
  now: number,
): Promise<{ sub: Subscription; updated: boolean }> {
  const id = subscriptionId(to.platform, to.chatId, to.threadId);
  const existing = await subs.get(id);
  const fresh = !existing || existing.disabled !== null;
  const sub: Subscription = {
    id,
    platform: to.platform,
    chatId: to.chatId,
    ...threadPart(to.threadId),
    isGroup: to.isGroup,
    filters: filtersFrom(existing?.filters ?? DEFAULT_FILTERS),
    mutedTokens: existing?.mutedTokens ?? [],
    pausedUntil: existing?.pausedUntil ?? null,
    startAfter: fresh ? await head() : existing.startAfter,
    disabled: null,
    createdBy: existing?.createdBy ?? by,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  await subs.put(sub);
  return { sub, updated: !fresh };
}

/** Turns alerts off for good; false when they were not on. */
export function unsubscribe(subs: SubscriptionStore, id: string): Promise<boolean> {
  return subs.delete(id);
}

/** Pauses alerts until `until` (FOREVER: until resumed); null resumes them. */
export function setPaused(
  subs: SubscriptionStore,
  sub: Subscription,
  until: number | null,
  now: number,
): Promise<void> {
  return subs.put({ ...sub, pausedUntil: until, updatedAt: now });
}

/** Mutes (or unmutes) one token (`chain:address`) for this destination. */
export function setMuted(
  subs: SubscriptionStore,
  sub: Subscription,
  tokenKey: string,
  muted: boolean,
  now: number,
): Promise<void> {
  const mutedTokens = muted
    ? [...new Set([...sub.mutedTokens, tokenKey])]
    : sub.mutedTokens.filter((t) => t !== tokenKey);
  return subs.put({ ...sub, mutedTokens, updatedAt: now });
}

/** Sets quiet hours (null: none). Alerts already held are summarised when the current quiet hours end, or at once without them. */
export function setQuiet(
  subs: SubscriptionStore,
  sub: Subscription,
  quiet: QuietHours | null,
  now: number,
): Promise<void> {
  return subs.put({ ...sub, quiet, updatedAt: now });
}

/** Sets the scheduled digest (null: none). */
export function setDigest(
  subs: SubscriptionStore,
  sub: Subscription,
  digest: DigestSettings | null,
  now: number,
): Promise<void> {
  return subs.put({ ...sub, digest, updatedAt: now });
}

/** Stops alerts to a destination that is gone (kicked, blocked, deleted); true when they were on. */
export async function disable(subs: SubscriptionStore, id: string, reason: string, now: number): Promise<boolean> {
  const sub = await subs.get(id);
  if (!sub || sub.disabled) return false;
  await subs.put({ ...sub, disabled: { reason, at: now }, updatedAt: now });
  return true;
}

/**
 * A chat got a new id (a Telegram group upgraded to a supergroup): its settings
 * follow it, unless the new chat already has its own (made there, they win).
 * The old id stays, disabled, pointing at the new chat, so that alerts already
 * queued for it follow. Safe to run again: answers the two ids only when something moved.
 */
export async function migrate(
  subs: SubscriptionStore,
  fromId: string,
  toChatId: string,
  now: number,
): Promise<{ from: string; to: string } | undefined> {
  const sub = await subs.get(fromId);
  if (!sub || sub.movedTo) return undefined;
  const to = subscriptionId(sub.platform, toChatId);
  // Only groups change ids.
  if (!(await subs.get(to))) await subs.put({ ...sub, id: to, chatId: toChatId, isGroup: true, updatedAt: now });
  await subs.put({ ...sub, disabled: { reason: `moved to ${toChatId}`, at: now }, movedTo: toChatId, updatedAt: now });
  return { from: fromId, to };
}
