/**
 * Each Discord announcement channel's publishing hour (adapters/discord/publish.ts),
 * under `publish:<channel>` in the watcher's space: when each publish of the
 * last hour went out, and the alerts posted unpublished since the last summary.
 * A restart or a new leader goes on from them: it does not publish an 11th time
 * into Discord's hour-long 429, and the summary still names every alert left
 * unpublished. `publish:held` lists the channels with a summary to come.
 */
import type { Kv } from './strict.ts';

const HOUR_MS = 3_600_000;
/** Alerts held longer than this are not worth a summary any more (a channel deleted meanwhile). */
const HELD_KEEP_MS = 2 * 86_400_000;
const HELD = 'publish:held';

export interface PublishHour {
  /** When each publish of the last hour went out, ascending. */
  readonly times: readonly number[];
  /** Alerts posted unpublished since the last summary, oldest first. */
  readonly held: readonly { readonly messageId: string; readonly title: string }[];
  /** The channel's language, for the summary. */
  readonly locale?: string | undefined;
}

export interface PublishLedgerStore {
  get(channelId: string): Promise<PublishHour | undefined>;
  put(channelId: string, hour: PublishHour): Promise<void>;
  /** Channels with alerts held for a summary. */
  held(): Promise<string[]>;
}

export function publishLedger(kv: Kv): PublishLedgerStore {
  return {
    get: (channelId) => kv.get<PublishHour>(`publish:${channelId}`),
    async put(channelId, hour) {
      // Read, change, write: only the delivering instance publishes, one channel's turn at a time.
      const held = hour.held.length > 0;
      await kv.set(`publish:${channelId}`, hour, held ? HELD_KEEP_MS : HOUR_MS);
      const list = (await kv.get<string[]>(HELD)) ?? [];
      if (list.includes(channelId) === held) return;
      await kv.set(HELD, held ? [...list, channelId] : list.filter((c) => c !== channelId));
    },
    async held() {
      const list = (await kv.get<string[]>(HELD)) ?? [];
      const hours = await kv.getMany<PublishHour>(list.map((c) => `publish:${c}`));
      // A channel whose record expired has nothing to summarise any more.
      return list.filter((_, i) => (hours[i]?.held.length ?? 0) > 0);
    },
  };
}

/** The same in memory: a Publisher without a store (tests, the console). */
export function memoryPublishLedger(): PublishLedgerStore {
  const hours = new Map<string, PublishHour>();
  return {
    get: async (channelId) => hours.get(channelId),
    put: async (channelId, hour) => void hours.set(channelId, hour),
    held: async () => [...hours].filter(([, h]) => h.held.length > 0).map(([c]) => c),
  };
}
