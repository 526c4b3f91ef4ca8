/**
 * A group upgraded to a supergroup gets a new chat id; its alert settings
 * follow it. Telegram says so twice (a service message in each chat) and again
 * on any send to the old id, so this must be safe to run more than once.
 */
import type { Logger } from 'pino';
import type { SubscriptionStore } from '../../store/subscriptions.ts';
import { movedAway, subscriptionId } from '../../store/subscriptions.ts';

/** Moves `telegram:<from>` to `telegram:<to>`; true when something moved. */
export async function migrateSubscription(subs: SubscriptionStore, from: string, to: string, log: Logger, now: () => number = Date.now): Promise<boolean> {
  const oldId = subscriptionId('telegram', from);
  const sub = await subs.get(oldId);
  if (!sub || sub.movedTo) return false;
  const newId = subscriptionId('telegram', to);
  // Settings made in the supergroup itself win over the old group's.
  if (!(await subs.get(newId))) await subs.put({ ...sub, id: newId, chatId: to, isGroup: true, updatedAt: now() });
  // The old id keeps a pointer, so alerts already queued for it follow to the new chat.
  await subs.put(movedAway(sub, to, now()));
  log.info({ from: oldId, to: newId }, 'telegram: subscription moved to the upgraded group');
  return true;
}
