/** A subscription as the store keeps it, open to every tweet unless filters say otherwise. */
import { DEFAULT_FILTERS } from '../../src/alerts/filters.ts';
import type { AlertFilters } from '../../src/store/subscriptions.ts';
import type { DestinationPlatform, Subscription } from '../../src/store/subscriptions.ts';

export const OPEN_FILTERS: AlertFilters = {
  ...DEFAULT_FILTERS,
  minTokenScore: 0,
  minKolScore: 0,
  minFollowers: 0,
  cooldownMinutes: 0,
};

export function openSubscription(
  platform: DestinationPlatform,
  chatId: string,
  filters: Partial<AlertFilters> = {},
): Subscription {
  return {
    id: `${platform}:${chatId}`,
    platform,
    chatId,
    isGroup: false,
    filters: { ...OPEN_FILTERS, ...filters },
    mutedTokens: [],
    pausedUntil: null,
    startAfter: null,
    disabled: null,
    createdBy: 'test',
    createdAt: 0,
    updatedAt: 0,
  };
}
