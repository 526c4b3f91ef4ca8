/**
 * The Discord adapter on discord.js 14: slash commands, buttons and
 * autocomplete into the dispatcher, the "Token card" message command and
 * automatic cards for pastes (lookups.ts), alerts out through the REST client.
 *
 * Interactions arrive either through the gateway (one session per shard; see
 * shards.ts for splitting shards across instances) or, with an Interactions
 * Endpoint URL, as signed HTTP requests (http-interactions.ts). Both feed the
 * same listener and handlers below.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { Client, Events, GatewayIntentBits, Partials, Status, type ClientOptions, type Interaction } from 'discord.js';
import type { Logger } from 'pino';
import type { Sender } from '../../alerts/delivery.ts';
import type { KolClient } from '../../api/index.ts';
import { SELECT_PREFIX } from '../../views/render/discord.ts';
import { isAction } from '../../core/actions.ts';
import type { AutoCards } from '../../core/autocard.ts';
import type { Dispatcher } from '../../core/dispatch.ts';
import { ignored } from '../../core/owner.ts';
import type { OwnerStore } from '../../store/owner.ts';
import { installOwnerMessages } from './owner.ts';
import { SlidingWindow } from '../window.ts';
import { createLookupBudget, type LookupBudget } from '../../core/budget.ts';
import { pickLocale, translator } from '../../i18n/index.ts';
import type { Claims } from '../../store/claims.ts';
import type { SubscriptionStore } from '../../store/subscriptions.ts';
import type { ChatAdapter } from '../types.ts';
import { createKolSuggest, createTokenSuggest } from './autocomplete.ts';
import { disableChannels, REMOVED_REASON, trackGuildChannels } from './guilds.ts';
import {
  CAPABILITIES,
  handleAutocomplete,
  handleButton,
  handleModal,
  handleCommand,
  refuseWhileStopping,
  type InteractionDeps,
} from './interactions.ts';
import { handleRecordCall, handleTokenCard, installMessageCards } from './lookups.ts';
import { NO_MENTIONS } from './payload.ts';
import { RECORD_CALL_COMMAND, TOKEN_CARD_COMMAND } from './commands.ts';
import { createDiscordSender } from './sender.ts';
import { rememberChannel } from './caller.ts';
import { Publisher, type PublisherOptions } from './publish.ts';
import {
  startHttpInteractions,
  type HttpInteractionsOptions,
  type HttpInteractionsServer,
} from './http-interactions.ts';
import { createTakeover } from './takeover.ts';
import { fleetIdentifyThrottler, planShards, type ShardConfig, type ShardPlan } from './shards.ts';
import type { ShardLeases } from './shard-leases.ts';
import { StartupError } from '../../startup.ts';

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

export interface DiscordAdapterOptions {
  readonly token: string;
  readonly applicationId: string;
  /** API base without the version (`http://127.0.0.1:PORT/api` for a local fake); Discord's by default. */
  readonly apiBase?: string;
  readonly dispatcher: Dispatcher;
  /** For KOL autocomplete, which must answer faster than a command. */
  readonly api: KolClient;
  readonly log: Logger;
  /** Tests scale Discord's limits down with the fake's: the client's global limit, and the alerts' pace below it (default 48/s). */
  readonly rest?: { readonly globalRequestsPerSecond?: number; readonly alertsPerSecond?: number };
  /** The clock and timer of the hourly publish limit in announcement channels (tests let an hour pass). */
  readonly publisher?: PublisherOptions;
  /** When given, subscriptions of a guild the bot is removed from are disabled at once. */
  readonly subscriptions?: SubscriptionStore;
  /** Called after a guild removed the bot, with the channels it had (for metrics or other stores). */
  readonly onGuildRemoved?: (guildId: string, channelIds: readonly string[]) => void | Promise<void>;
  /** Upstream budget of a deferred command; default 10 s (the reply can be edited for 15 min). */
  readonly commandBudgetMs?: number;
  /** Upstream budget of one autocomplete lookup; default 1.5 s (Discord waits about 3 s). */
  readonly autocompleteBudgetMs?: number;
  /** How long stop() lets in-flight interactions finish before aborting them; default 10 s. */
  readonly stopGraceMs?: number;
  /** Extra discord.js client options (tests pass a gateway identify throttler). */
  readonly clientOptions?: Partial<ClientOptions>;
  /** Serve signed HTTP interactions on this port instead of connecting to the gateway. */
  readonly httpInteractions?: HttpInteractionsOptions;
  /** Run these gateway shards (of a fleet that splits them); one shard when omitted. */
  readonly shards?: ShardConfig;
  /** Each shard held under a lease in the store, so two instances never run one shard (see shard-leases.ts). */
  readonly shardLeases?: ShardLeases;
  /** The store's claim, to space IDENTIFY across the fleet (see shards.ts). */
  readonly claim?: (key: string, ttlMs: number) => Promise<boolean>;
  /** Leased claims on interactions (the store's): an interaction deferred here is finished by another instance if this one dies. */
  readonly claims?: Claims;
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
    },
  });
  const shutdown = new AbortController();
  const inflight = new Set<Promise<void>>();
  let stopping = false;
  let started = false;
  let http: HttpInteractionsServer | undefined;
  let plan: ShardPlan | undefined;
  let leaseLost = false;
  let resolveLost: (line: string) => void = () => {};
  const lost = new Promise<string>((resolve) => (resolveLost = resolve));

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
    ...(takeover ? { acknowledged: takeover.acknowledged } : {}),
  };

  async function route(i: Interaction): Promise<void> {
    if (stopping) return refuseWhileStopping(i);
    const origin = {
      platform: 'discord' as const,
      userId: i.user.id,
      chatId: i.channelId ?? undefined,
      serverId: i.guildId ?? undefined,
    };
    if (await ignored(o.bans, origin, i.isCommand() ? 'command' : 'interaction', log)) return;
    if (i.isChatInputCommand()) return handleCommand(i, deps);
    if (i.isAutocomplete()) return handleAutocomplete(i, deps);
    if (i.isMessageContextMenuCommand() && i.commandName === TOKEN_CARD_COMMAND && o.autoCards) {
      return handleTokenCard(i, {
        autoCards: o.autoCards,
        dispatcher: o.dispatcher,
        log,
        signal: AbortSignal.any([shutdown.signal, AbortSignal.timeout(deps.commandBudgetMs + 2000)]),
      });
    }
    if (i.isMessageContextMenuCommand() && i.commandName === RECORD_CALL_COMMAND)
      return handleRecordCall(i, { dispatcher: o.dispatcher, log });
    // A context-menu command this build does not serve: answer, or Discord shows "This interaction failed".
    if (i.isContextMenuCommand())
      await i.reply({
        content: translator(pickLocale(i.locale))('lookup.messageCommandUnavailable'),
        flags: 64,
        allowedMentions: NO_MENTIONS,
      });
    if (i.isButton() && isAction(i.customId)) return handleButton(i, deps);
    if (i.isModalSubmit() && isAction(i.customId)) return handleModal(i, deps);
    // A select menu of ours: each option is an action, run as if its button were pressed.
    if (i.isStringSelectMenu() && i.customId.startsWith(SELECT_PREFIX) && isAction(i.values[0] ?? ''))
      return handleButton(i, deps, i.values[0]);
    // A button we do not know (an older build's): answer, or Discord shows "This interaction failed".
    if (i.isButton())
      await i.reply({
        content: translator(pickLocale(i.locale))('errors.oldButton'),
        flags: 64,
        allowedMentions: NO_MENTIONS,
      });
  }

  /** The one error boundary: whatever broke, log it and tell the user if Discord still lets us. */
  async function guarded(i: Interaction): Promise<void> {
    try {
      takeover?.prepare(i);
      await route(i);
    } catch (err) {
      log.error({ err, type: i.type, command: i.isCommand() ? i.commandName : undefined }, 'interaction failed');
      if (!i.isRepliable()) return;
      const answer = {
        content: translator(pickLocale(i.locale))('errors.failed'),
        flags: 64,
        allowedMentions: NO_MENTIONS,
      } as const;
      // After a public defer, a follow-up would be public too: edit the short message into the reply instead.
      const tell =
        i.deferred && !i.replied
          ? i.editReply({ content: answer.content, embeds: [], components: [], allowedMentions: NO_MENTIONS })
          : i.replied
            ? i.followUp(answer)
            : i.reply(answer);
      await tell.catch(() => {});
    } finally {
      await takeover?.finished(i);
    }
  }

  const track = (run: Promise<void>) => {
    inflight.add(run);
    void run.finally(() => inflight.delete(run));
  };
  // After a shard's lease is lost, nothing more is answered here: another instance may run it now.
  client.on(Events.InteractionCreate, (i) => void (leaseLost || track(guarded(i))));

  if (o.autoCards)
    installMessageCards(client, {
      autoCards: o.autoCards,
      log,
      contentIntent: o.messageContent === true,
      ...(o.bans ? { bans: o.bans } : {}),
    });
  if (owners) installOwnerMessages(client, { dispatcher: o.dispatcher, log });

  const channelsOf = trackGuildChannels(client);
  client.on(Events.GuildDelete, (guild) => {
    // discord.js emits this only without `unavailable` (an outage emits guildUnavailable instead).
    const channelIds = channelsOf(guild.id);
    log.info({ guild: guild.id, channels: channelIds.length }, 'removed from a guild');
    void (async () => {
      if (o.subscriptions) await disableChannels(o.subscriptions, channelIds, REMOVED_REASON);
      await o.onGuildRemoved?.(guild.id, channelIds);
    })().catch((err: unknown) => log.error({ err, guild: guild.id }, 'disabling a removed guild failed'));
  });

  // An interaction's raw channel, for a thread discord.js has not cached (callerFor keeps it a thread).
  client.on(Events.Raw, (packet: { t?: string; d?: unknown }) => {
    if (packet.t === 'INTERACTION_CREATE') rememberChannel(packet.d);
  });
  client.on(Events.Error, (err) => log.error({ err }, 'discord client error'));
  client.on(Events.Warn, (message) => log.warn({ message }, 'discord client warning'));
  client.on(Events.ShardDisconnect, (event, shard) =>
    log.error({ code: event.code, shard }, 'gateway closed for good'),
  );
  client.on(Events.ShardReconnecting, (shard) => log.info({ shard }, 'gateway reconnecting'));
  client.on(Events.ShardResume, (shard, replayed) => log.info({ shard, replayed }, 'gateway resumed'));
  client.rest.on('rateLimited', (info) =>
    log.debug({ route: info.route, retryAfter: info.retryAfter, global: info.global }, 'discord rate limit'),
  );

  return {
    platform: 'discord',
    client,
    sender: createDiscordSender(
      client.rest,
      log,
      o.rest?.alertsPerSecond ? new SlidingWindow(o.rest.alertsPerSecond, 1000) : undefined,
      new Publisher(client.rest, log, o.publisher),
    ) satisfies Sender,
    async start() {
      if (o.httpInteractions) {
        // No gateway: interactions come over HTTP, alerts and edits go through REST.
        client.rest.setToken(o.token);
        http = await startHttpInteractions(client, o.httpInteractions, log, {
          track: (p) => void track(p.then(() => {})),
          ...(o.claim
            ? { firstTime: (id: string) => o.claim!(`discord:${o.applicationId}:interaction:${id}`, 15 * 60_000) }
            : {}),
        });
        started = true;
        takeover?.start();
        log.info({ port: http.address.port }, 'discord ready: HTTP interactions on POST /interactions');
        return;
      }
      if (o.shards) {
        client.rest.setToken(o.token);
        try {
          plan = await planShards(client.rest, o.shards);
        } catch (err) {
          throw new Error(`Discord shards cannot start: ${(err as Error).message}`);
        }
        if (o.shardLeases) {
          const { held, refused } = await o.shardLeases.take(plan.ids);
          for (const id of refused)
            log.error(
              { shard: id },
              `discord shard ${id} is run by another instance: not starting it here (do two instances name it in DISCORD_SHARD_IDS?)`,
            );
          if (held.length === 0)
            throw new StartupError(
              `Discord shard ${refused.join(', ')} ${refused.length > 1 ? 'are' : 'is'} run by another instance: two instances name the same DISCORD_SHARD_IDS`,
            );
          plan = { ...plan, ids: held };
        }
        client.options.shards = plan.ids;
        client.options.shardCount = plan.count;
        if (o.claim && !o.clientOptions?.ws?.buildIdentifyThrottler) {
          const throttler = fleetIdentifyThrottler(o.claim, o.applicationId, plan.maxConcurrency);
          client.options.ws = { ...client.options.ws, buildIdentifyThrottler: () => throttler };
        }
        log.info({ shards: plan.ids, of: plan.count, maxConcurrency: plan.maxConcurrency }, 'discord: starting shards');
      }
      const ready = once(client, Events.ClientReady);
      try {
        await client.login(o.token);
      } catch (err) {
        ready.catch(() => {});
        throw new Error(`Discord login failed: ${(err as Error).message}`);
      }
      await ready;
      started = true;
      takeover?.start();
      o.shardLeases?.keep((shard, why) => {
        // Another instance may take the shard from here on: this one stops answering on it at once.
        leaseLost = true;
        // The gateway alone closes (REST stays up for the shutdown's last sends). discord.js marks
        // WebSocketManager#destroy private, and has no public call that closes only the gateway.
        void (client.ws as unknown as { destroy(): Promise<void> }).destroy().catch(() => {});
        resolveLost(`lost discord shard ${shard} (${why}): stopping so that one instance runs it`);
      });
      if (client.application?.id && client.application.id !== o.applicationId) {
        log.warn(
          { expected: o.applicationId, actual: client.application.id },
          'DISCORD_APPLICATION_ID does not match the bot token; commands may be registered elsewhere',
        );
      }
      log.info({ guilds: client.guilds.cache.size }, 'discord ready');
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      takeover?.stop();
      const settle = () => Promise.allSettled([...inflight]);
      const grace = o.stopGraceMs ?? 10_000;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), grace)));
      const outcome = await Promise.race([settle().then(() => 'done' as const), timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        // Late commands get "took too long" instead of being cut off silently.
        shutdown.abort(new Error('shutting down'));
        await Promise.race([settle(), sleep(2000, undefined, { ref: false })]);
      }
      await http?.close();
      await client.destroy();
      await o.shardLeases?.release(); // after the gateway closed: the next holder's session never overlaps ours
      o.claims?.close(); // after the last handler: its claim was renewed until it finished
    },
    isReady() {
      if (http) return started && !stopping;
      return (
        started &&
        !stopping &&
        !leaseLost &&
        client.isReady() &&
        client.ws.shards.size > 0 &&
        client.ws.shards.every((s) => s.status === Status.Ready)
      );
    },
    httpAddress: () => http?.address,
    lost,
    roles() {
      if (http) return { http: true };
      const shards = [...client.ws.shards.values()].filter((s) => s.status === Status.Ready).map((s) => s.id);
      return { shards, shardCount: plan?.count ?? client.options.shardCount ?? 1 };
    },
  };
}
