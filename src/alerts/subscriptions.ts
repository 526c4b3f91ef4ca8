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
  type DestinationPosting,
  type DigestSettings,
  type QuietHours,
  type FeedPosition,
  type Subscription,
  type SubscriptionStore,
} from '../store/subscriptions.ts';
import { DEFAULT_FILTERS } from './filters.ts';
import { threadPart } from '../domain/destination.ts';
import { keyedTurns, type Turns } from '../domain/turns.ts';

/**
 * Runs changes to one destination one after another on this store connection: each
 * reads the subscription and writes it back whole, so two admins pressing at
 * once would otherwise lose one change. Another key's changes do not wait. Another
 * instance's changes are not in these turns: `replace` (compare-and-set on the
 * record's version) refuses a write read before theirs, and the command runs again.
 */
const turns = new WeakMap<SubscriptionStore, Turns>();
export function turnsOf(subs: SubscriptionStore): Turns {
  let t = turns.get(subs);
  if (!t) {
    t = keyedTurns();
    turns.set(subs, t);
  }
  return t;
}

/** Paused "forever" is stored as a far date: JSON has no Infinity. */
export const FOREVER = 8_640_000_000_000_000;

export interface Destination {
  readonly platform: DestinationPlatform;
  readonly chatId: string;
  /** A forum topic of the chat; absent: the chat itself. */
  readonly threadId?: string | undefined;
  readonly isGroup: boolean;
  /** The server the chat belongs to (Discord), or the group itself (Telegram). */
  readonly serverId?: string;
  readonly name?: string;
}

/** Why a subscription an owner stopped is off: `enable` and an unban turn on only these. */
export const BY_OWNER = 'disabled by the owner';
export const BANNED = 'banned by the owner';

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
  postingFrom: (current: DestinationPosting | undefined) => DestinationPosting | undefined = (p) => p,
): Promise<{ sub: Subscription; updated: boolean }> {
  const id = subscriptionId(to.platform, to.chatId, to.threadId);
  const existing = await subs.get(id);
  // An owner's stop is not lifted by a member subscribing again.
  if (existing?.disabled && ownerStopped(existing)) throw new StoppedByOwner(existing.disabled.reason);
  const fresh = !existing || existing.disabled !== null;
  const sub: Subscription = {
    id,
    platform: to.platform,
    chatId: to.chatId,
    ...threadPart(to.threadId),
    isGroup: to.isGroup,
    ...(to.serverId ? { serverId: to.serverId } : existing?.serverId ? { serverId: existing.serverId } : {}),
    ...(to.name ? { name: to.name } : existing?.name ? { name: existing.name } : {}),
    filters: filtersFrom(existing?.filters ?? DEFAULT_FILTERS),
    ...postingPart(postingFrom(existing?.posting)),
    mutedTokens: existing?.mutedTokens ?? [],
    pausedUntil: existing?.pausedUntil ?? null,
    // A filter change keeps the chat's quiet hours and digest: they are not filters.
    ...(existing?.quiet ? { quiet: existing.quiet } : {}),
    ...(existing?.digest ? { digest: existing.digest } : {}),
    startAfter: fresh ? await head() : existing.startAfter,
    disabled: null,
    createdBy: existing?.createdBy ?? by,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    ...(existing?.rev !== undefined ? { rev: existing.rev } : {}),
  };
  await subs.replace(sub);
  return { sub, updated: !fresh };
}

/** `{ posting }` when it asks for anything, else nothing: a plain destination's record stays as it was. */
function postingPart(p: DestinationPosting | undefined): { posting?: DestinationPosting } {
  return p && Object.keys(p).length > 0 ? { posting: p } : {};
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
  return subs.replace({ ...sub, pausedUntil: until, updatedAt: now });
}

/**
 * Ends a pause that ran out by itself, unless it was resumed, changed or renewed
 * since `until` was read (then its own answer said so). True when it was cleared.
 */
export function endPause(subs: SubscriptionStore, id: string, until: number, now: number): Promise<boolean> {
  return turnsOf(subs)(id, async () => {
    const current = await subs.get(id);
    if (current?.pausedUntil !== until) return false;
    await subs.put({ ...current, pausedUntil: null, updatedAt: now });
    return true;
  });
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
  return subs.replace({ ...sub, mutedTokens, updatedAt: now });
}

/** Sets quiet hours (null: none). Alerts already held are summarised when the current quiet hours end, or at once without them. */
export function setQuiet(
  subs: SubscriptionStore,
  sub: Subscription,
  quiet: QuietHours | null,
  now: number,
): Promise<void> {
  return subs.replace({ ...sub, quiet, updatedAt: now });
}

/** Sets the scheduled digest (null: none). */
export function setDigest(
  subs: SubscriptionStore,
  sub: Subscription,
  digest: DigestSettings | null,
  now: number,
): Promise<void> {
  return subs.replace({ ...sub, digest, updatedAt: now });
}

/** Stops alerts to a destination that is gone (kicked, blocked, deleted); true when they were on. */
export async function disable(subs: SubscriptionStore, id: string, reason: string, now: number): Promise<boolean> {
  const sub = await subs.get(id);
  if (!sub || sub.disabled) return false;
  await subs.put({ ...sub, disabled: { reason, at: now }, updatedAt: now });
  return true;
}

/**
 * Stops alerts to a chat and to every thread of it (the bot removed, or no longer allowed to
 * post there); returns the ids that were on.
 */
export async function disableChat(
  subs: SubscriptionStore,
  platform: DestinationPlatform,
  chatId: string,
  reason: string,
  now: number,
): Promise<string[]> {
  const ids = [subscriptionId(platform, chatId), ...(await subs.threadsOf(platform, chatId)).map((s) => s.id)];
  const stopped: string[] = [];
  for (const id of ids) if (await disable(subs, id, reason, now)) stopped.push(id);
  return stopped;
}

/**
 * A destination's thread is gone but its chat is not (a Telegram group turned
 * topics off): the settings move to the chat itself, and the thread's
 * subscription stays, disabled, pointing at the chat (`movedTo`), so that alerts
 * already queued for it follow. When the chat has alerts of its own (its own
 * subscription, or another topic's moved there first) those win: the thread's
 * subscription is only disabled, and its queued alerts are not posted twice.
 * Safe to run again; callers serialise it per chat.
 */
export async function leaveThread(
  subs: SubscriptionStore,
  fromId: string,
  now: number,
): Promise<{ from: string; to: string; merged: boolean } | undefined> {
  const sub = await subs.get(fromId);
  if (!sub?.threadId || sub.disabled) return undefined;
  const to = subscriptionId(sub.platform, sub.chatId);
  const own = await subs.get(to);
  // The chat's copy of this very topic (made by a run that stopped before its second write) is no chat's own.
  const copy = own?.createdAt === sub.createdAt && own.createdBy === sub.createdBy;
  const merged = own !== undefined && own.disabled === null && !copy;
  if (!merged && !copy) {
    const { threadId: _, ...chat } = sub;
    await subs.put({ ...chat, id: to, disabled: null, updatedAt: now });
  }
  const reason = merged
    ? 'the group turned topics off; the chat has alerts of its own'
    : 'the group turned topics off; alerts go to the chat';
  await subs.put({ ...sub, disabled: { reason, at: now }, ...(merged ? {} : { movedTo: sub.chatId }), updatedAt: now });
  return { from: fromId, to, merged };
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

export class StoppedByOwner extends Error {
  override name = 'StoppedByOwner';
}

const ownerStopped = (s: Subscription) =>
  s.disabled !== null && (s.disabled.reason.startsWith(BY_OWNER) || s.disabled.reason.startsWith(BANNED));

/**
 * Turns alerts back on where an owner stopped them (`BY_OWNER`, or with `banned` a
 * ban's `BANNED`); a destination gone by itself stays off until subscribed again.
 * Alerts resume from the next tweet read: nothing missed meanwhile is sent.
 */
export async function enable(
  subs: SubscriptionStore,
  id: string,
  now: number,
  reason: string = BY_OWNER,
): Promise<boolean> {
  const sub = await subs.get(id);
  if (!sub?.disabled || sub.movedTo || !sub.disabled.reason.startsWith(reason)) return false;
  await subs.put({ ...sub, disabled: null, updatedAt: now });
  return true;
}

/** The subscriptions a ban of `platform:id` stops: the chat's own, and a server's channels. */
export function bannedBy(all: readonly Subscription[], platform: string, id: string): Subscription[] {
  return all.filter((s) => s.platform === platform && (s.chatId === id || s.serverId === id));
}

/** Stops (or, lifted, restarts) the alerts of a banned chat or server; returns how many changed. */
export async function applyBan(
  subs: SubscriptionStore,
  target: { platform: string; id: string },
  banned: boolean,
  now: number,
): Promise<number> {
  let n = 0;
  for (const s of bannedBy(await subs.all(), target.platform, target.id)) {
    if (banned ? await disable(subs, s.id, BANNED, now) : await enable(subs, s.id, now, BANNED)) n++;
  }
  return n;
}

/** The server a subscription counts for: its server, else its own chat (older ones, Telegram groups). */
export const serverOf = (s: Pick<Subscription, 'platform' | 'chatId' | 'serverId'>): string =>
  `${s.platform}:${s.serverId ?? s.chatId}`;

/**
 * Which quota a new subscription at `to`, made by `by`, would pass, or undefined
 * when it fits. A subscription that exists already (a change of filters) always fits;
 * subscriptions an owner or a platform stopped do not count.
 */
export async function overQuota(
  subs: SubscriptionStore,
  to: Destination,
  by: string,
  quotas: { readonly perServer?: number; readonly perPerson?: number },
): Promise<{ which: 'server' | 'person'; limit: number } | undefined> {
  if (quotas.perServer === undefined && quotas.perPerson === undefined) return undefined;
  const existing = await subs.get(subscriptionId(to.platform, to.chatId, to.threadId));
  if (existing && !existing.disabled) return undefined;
  const live = (await subs.all()).filter((s) => !s.disabled);
  const server = serverOf(to);
  if (quotas.perServer !== undefined && live.filter((s) => serverOf(s) === server).length >= quotas.perServer)
    return { which: 'server', limit: quotas.perServer };
  if (
    quotas.perPerson !== undefined &&
    live.filter((s) => s.platform === to.platform && s.createdBy === by).length >= quotas.perPerson
  )
    return { which: 'person', limit: quotas.perPerson };
  return undefined;
}
