/**
 * The Discord adapter's event wiring: which handler each interaction goes to,
 * the adapter's one error boundary around them, and the client's other events
 * (pasted messages, the owners' DMs, a guild that removed the bot, gateway
 * logs). Apart from index.ts so that what the bot answers is read in one place
 * and when it connects and disconnects (lifecycle.ts) in another.
 */
import { Events, type Client, type Interaction } from 'discord.js';
import type { Logger } from 'pino';
import { SELECT_PREFIX } from '../../views/render/discord.ts';
import { isAction } from '../../core/actions.ts';
import type { AutoCards } from '../../core/autocard.ts';
import type { Dispatcher } from '../../core/dispatch.ts';
import { ignored } from '../../core/owner.ts';
import type { OwnerStore } from '../../store/owner.ts';
import type { SubscriptionStore } from '../../store/subscriptions.ts';
import { pickLocale, translator } from '../../i18n/index.ts';
import { installOwnerMessages } from './owner.ts';
import { disableChannels, REMOVED_REASON, trackGuildChannels } from './guilds.ts';
import {
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
import { rememberChannel } from './caller.ts';
import type { Takeover } from './takeover.ts';

export interface WiringOptions {
  readonly dispatcher: Dispatcher;
  readonly log: Logger;
  readonly deps: InteractionDeps;
  readonly takeover: Takeover | undefined;
  /** Read the owners' console in the bot's DMs (a Discord owner is named). */
  readonly owners: boolean;
  readonly autoCards?: AutoCards;
  readonly messageContent?: boolean;
  readonly bans?: Pick<OwnerStore, 'banned'>;
  readonly subscriptions?: SubscriptionStore;
  readonly onGuildRemoved?: (guildId: string, channelIds: readonly string[]) => void | Promise<void>;
  /** stop() has begun: new interactions are refused politely. */
  readonly stopping: () => boolean;
  /** A shard's lease was lost: nothing more is answered here. */
  readonly leaseLost: () => boolean;
  /** Counts a handler as in flight, for stop() to wait on. */
  readonly track: (run: Promise<void>) => void;
}

/** Installs every listener the adapter needs on `client`. */
export function wireEvents(client: Client, o: WiringOptions): void {
  const { log, deps } = o;

  async function route(i: Interaction): Promise<void> {
    if (o.stopping()) return refuseWhileStopping(i);
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
        signal: AbortSignal.any([deps.shutdown, AbortSignal.timeout(deps.commandBudgetMs + 2000)]),
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
      o.takeover?.prepare(i);
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
      await o.takeover?.finished(i);
    }
  }

  // After a shard's lease is lost, nothing more is answered here: another instance may run it now.
  client.on(Events.InteractionCreate, (i) => void (o.leaseLost() || o.track(guarded(i))));

  if (o.autoCards)
    installMessageCards(client, {
      autoCards: o.autoCards,
      log,
      contentIntent: o.messageContent === true,
      ...(o.bans ? { bans: o.bans } : {}),
    });
  if (o.owners) installOwnerMessages(client, { dispatcher: o.dispatcher, log });

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
}
