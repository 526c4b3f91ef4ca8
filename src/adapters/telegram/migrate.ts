/**
 * A group upgraded to a supergroup gets a new chat id; its alert settings
 * follow it. Telegram says so twice (a service message in each chat) and again
 * on any send to the old id, so this must be safe to run more than once.
 */
import type { Logger } from 'pino';
import { migrate } from '../../alerts/subscriptions.ts';
import { subscriptionId, type SubscriptionStore } from '../../store/subscriptions.ts';

/** Moves `telegram:<from>` to `telegram:<to>`; true when something moved. */
export async function migrateSubscription(
  subs: SubscriptionStore,
  from: string,
  to: string,
  log: Logger,
  now: () => number = Date.now,
): Promise<boolean> {
  const moved = await migrate(subs, subscriptionId('telegram', from), to, now());
  if (moved) log.info(moved, 'telegram: subscription moved to the upgraded group');
  return moved !== undefined;
}
