/**
 * The Discord adapter on discord.js 14: slash commands, buttons and
 * autocomplete into the dispatcher, the "Token card" message command and
 * automatic cards for pastes (lookups.ts), alerts out through the REST client.
 *
 * Interactions arrive either through the gateway (one session per shard; see
 * shards.ts for splitting shards across instances) or, with an Interactions
 * Endpoint URL, as signed HTTP requests (http-interactions.ts). Both feed the
 * same listener and handlers (routing.ts); connecting, shard leases and the
 * graceful stop are lifecycle.ts's. This file builds the client and joins them.
 */
import type { AddressInfo } from 'node:net';
import { Client, GatewayIntentBits, Partials } from 'discord.js';
import type { Logger } from 'pino';
import type { Sender } from '../../alerts/delivery.ts';
import type { KolClient } from '../../api/index.ts';
import type { AutoCards } from '../../core/autocard.ts';
import type { Dispatcher } from '../../core/dispatch.ts';
import type { OwnerStore } from '../../store/owner.ts';
import { SlidingWindow } from '../window.ts';
import { createLookupBudget, type LookupBudget } from '../../core/budget.ts';
import type { SubscriptionStore } from '../../store/subscriptions.ts';
import type { PublishLedgerStore } from '../../store/publishes.ts';
import type { ChatAdapter } from '../types.ts';
import { createKolSuggest, createTokenSuggest } from './autocomplete.ts';
import { CAPABILITIES, type InteractionDeps } from './interactions.ts';
import { NO_MENTIONS } from './payload.ts';
import { createDiscordSender } from './sender.ts';
import { Publisher, type PublisherOptions } from './publish.ts';
import { createTakeover } from './takeover.ts';
import { rejectLongWaits } from './deadline.ts';
import { createLifecycle, type ConnectionOptions } from './lifecycle.ts';
import { wireEvents } from './routing.ts';

export {
  toDiscordCommands,
  toDiscordCommand,
  toSlashCommands,
  messageCommands,
  TOKEN_CARD_COMMAND,
  type DiscordCommand,
  type DiscordMessageCommand,
} from './commands.ts';
export { deployCommands, type DeployOptions, type DeployResult } from './deploy.ts';
export { mapSendError } from './sender.ts';
export type { HttpInteractionsOptions } from './http-interactions.ts';
export type { ShardConfig } from './shards.ts';
export { SHARD_LEASE_TTL_MS, shardLeases } from './shard-leases.ts';

export interface DiscordAdapterOptions extends ConnectionOptions {
  /** API base without the version (`http://127.0.0.1:PORT/api` for a local fake); Discord's by default. */
  readonly apiBase?: string;
  readonly dispatcher: Dispatcher;
  /** For KOL autocomplete, which must answer faster than a command. */
  readonly api: KolClient;
  readonly log: Logger;
  /** Tests scale Discord's limits down with the fake's: the client's global limit, and the alerts' pace below it (default 48/s). */
  readonly rest?: {
    readonly globalRequestsPerSecond?: number;
    readonly alertsPerSecond?: number;
    /** The longest one delivery call (send, edit, crosspost) may take; default SEND_DEADLINE_MS (deadline.ts). */
    readonly sendDeadlineMs?: number;
  };
  /** The clock and timer of the hourly publish limit in announcement channels (tests let an hour pass). */
  readonly publisher?: PublisherOptions;
  /** Where announcement channels' publishing hours are kept across restarts (store/publishes.ts); in memory without it. */
  readonly publishes?: PublishLedgerStore;
  /** When given, subscriptions of a guild the bot is removed from are disabled at once. */
  readonly subscriptions?: SubscriptionStore;
  /** Called after a guild removed the bot, with the channels it had (for metrics or other stores). */
  readonly onGuildRemoved?: (guildId: string, channelIds: readonly string[]) => void | Promise<void>;
  /** Upstream budget of a deferred command; default 10 s (the reply can be edited for 15 min). */
  readonly commandBudgetMs?: number;
  /** Upstream budget of one autocomplete lookup; default 1.5 s (Discord waits about 3 s). */
  readonly autocompleteBudgetMs?: number;
  /** Cards for pasted addresses and links (DMs, mentions, and with `messageContent` every server message) and the "Token card" message command. */
  readonly autoCards?: AutoCards;
  /** Each user's upstream budget for lookups (autocomplete, "Token card"), shared with the other adapters (app.lookups). */
  readonly lookups?: LookupBudget;
  /** Ask for the privileged Message Content intent (enable it in the developer portal first, or Discord refuses the login). */
  readonly messageContent?: boolean;
  /** The owners' bans (the store's): a banned server, channel or user is ignored. */
  readonly bans?: Pick<OwnerStore, 'banned'>;
}

export interface DiscordAdapter extends ChatAdapter {
  readonly platform: 'discord';
  readonly client: Client;
  /** Where POST /interactions listens, in HTTP interactions mode. */
  httpAddress(): AddressInfo | undefined;
}

export function createDiscordAdapter(o: DiscordAdapterOptions): DiscordAdapter {
  const log = o.log.child({ adapter: 'discord' });
  // Pastes arrive as messages: guild messages (content only with the privileged intent), DMs (a partial channel: DMs are not cached).
  // The owners' console is typed in the bot's DM: DMs are read when a Discord owner is named.
  const owners = [...o.dispatcher.owners].some((id) => id.startsWith('discord:'));
  const messageIntents =
    o.autoCards || owners
      ? [
          GatewayIntentBits.GuildMessages,
          GatewayIntentBits.DirectMessages,
          ...(o.messageContent ? [GatewayIntentBits.MessageContent] : []),
        ]
      : [];
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, ...messageIntents],
    ...(o.autoCards || owners ? { partials: [Partials.Channel] } : {}),
    allowedMentions: NO_MENTIONS,
    ...o.clientOptions,
    rest: {
      ...o.clientOptions?.rest,
      ...(o.apiBase ? { api: o.apiBase } : {}),
      ...(o.rest?.globalRequestsPerSecond ? { globalRequestsPerSecond: o.rest.globalRequestsPerSecond } : {}),
      // A crosspost's hour-long 429, or any limit longer than a delivery call may take, is
      // refused at once instead of slept through inside the call (deadline.ts).
      rejectOnRateLimit: rejectLongWaits(o.rest?.sendDeadlineMs),
    },
  });

  const shutdown = new AbortController();
  const lookups = o.lookups ?? createLookupBudget();
  const suggest = { api: o.api, budgetMs: o.autocompleteBudgetMs ?? 1500, lookups };
  const takeover = o.claims ? createTakeover(client, o.claims, log) : undefined;
  const deps: InteractionDeps = {
    dispatcher: o.dispatcher,
    suggestKols: createKolSuggest(suggest),
    ...(o.autoCards
      ? { capabilities: { ...CAPABILITIES, readsAllMessages: async () => o.messageContent === true } }
      : {}),
    suggestTokens: createTokenSuggest(suggest),
    log,
    commandBudgetMs: o.commandBudgetMs ?? 10_000,
    shutdown: shutdown.signal,
    ...(takeover ? { acknowledging: takeover.acknowledging } : {}),
  };
  const life = createLifecycle(client, { ...o, log, takeover, shutdown });
  wireEvents(client, {
    ...o,
    log,
    deps,
    takeover,
    owners,
    stopping: life.stopping,
    leaseLost: life.leaseLost,
    track: life.track,
  });

  return {
    platform: 'discord',
    client,
    sender: createDiscordSender(
      client.rest,
      log,
      o.rest?.alertsPerSecond ? new SlidingWindow(o.rest.alertsPerSecond, 1000) : undefined,
      new Publisher(client.rest, log, { ledger: o.publishes, ...o.publisher, deadlineMs: o.rest?.sendDeadlineMs }),
      o.rest?.sendDeadlineMs,
    ) satisfies Sender,
    start: life.start,
    stop: life.stop,
    isReady: life.isReady,
    httpAddress: life.httpAddress,
    lost: life.lost,
    roles: life.roles,
  };
}
