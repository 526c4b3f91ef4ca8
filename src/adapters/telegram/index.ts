/**
 * The Telegram adapter on grammY: long polling (or a webhook), commands and
 * buttons through the dispatcher, automatic cards for pastes (autocard.ts),
 * inline mode (inline.ts), and the paced alert sender.
 *
 * Polling uses @grammyjs/runner rather than bot.start(): bot.start() handles
 * one update at a time, so one slow command (the upstream may take seconds)
 * would hold up every chat. The runner handles updates concurrently, and
 * sequentialize() by chat id keeps each chat's updates in order, so a
 * /subscribe and the /alerts after it never race.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sequentialize } from '@grammyjs/runner';
import { Api, Bot, BotError, GrammyError } from 'grammy';
import type { LanguageCode, Update } from 'grammy/types';
import type { Logger } from 'pino';
import type { Sender } from '../../alerts/delivery.ts';
import type { KolClient } from '../../api/index.ts';
import type { AutoCards } from '../../core/autocard.ts';
import type { Dispatcher } from '../../core/dispatch.ts';
import { LOCALES, TELEGRAM_CODES, translator } from '../../i18n/index.ts';
import { explainConnectError, StartupError, waitFor } from '../../startup.ts';
import type { Store } from '../../store/index.ts';
import { localLease, type Lease } from '../../store/lease.ts';
import type { ChatAdapter } from '../types.ts';
import { createAdminCheck } from './admin.ts';
import { installAutoCards } from './autocard.ts';
import { botApiAgent } from './connections.ts';
import { ignored } from '../../core/owner.ts';
import { botCommands, MENU_SCOPES } from './commands.ts';
import { installHandlers, RepeatedRefusals, installPromptAnswers } from './handlers.ts';
import { installInline } from './inline.ts';
import type { LookupBudget } from '../../core/budget.ts';
import { migrateSubscription } from './migrate.ts';
import { Pacer, type PacingOptions } from './pacer.ts';
import { createPoller, isConflict, type Poller } from './poller.ts';
import { createTelegramSender, deliveryApis } from './sender.ts';
import { migrateToOf, pacingTransformer } from './transport.ts';
import { startWebhookServer, type WebhookOptions, type WebhookServer } from './webhook.ts';

export type { PacingOptions } from './pacer.ts';
export type { WebhookOptions } from './webhook.ts';

export interface TelegramAdapterOptions {
  readonly token: string;
  /** Bot API root without a trailing slash (a self-hosted Bot API server, or a fake in tests). */
  readonly apiRoot?: string;
  /** Webhook mode instead of long polling. */
  readonly webhook?: WebhookOptions;
  readonly dispatcher: Dispatcher;
  readonly store: Store;
  readonly log: Logger;
  /** Telegram's limits by default; tests scale time to run a fake's shorter clock; `paid`: paid broadcasts. */
  readonly pacing?: PacingOptions;
  /** Polling only: the lease that lets one instance of a fleet poll (app.lease); always held when omitted. */
  readonly pollLease?: Lease;
  /** Cards for pasted addresses and links; without it pastes are ignored. */
  readonly autoCards?: AutoCards;
  /** Answers inline queries (`@bot <query>`); without it they are not asked for. */
  readonly api?: KolClient;
  /** Each sender's upstream budget for inline queries, shared with the other adapters (app.lookups). */
  readonly lookups?: LookupBudget;
  /** Names this instance in the update claims it holds (app.instanceId); a random id when omitted. */
  readonly instanceId?: string;
  /** How long an update stays claimed by a handler that stops renewing (its instance died); default 10 s. */
  readonly claimLeaseMs?: number;
  /** How start() waits for Telegram's API (see startup.ts): 30 s by default, and a signal that ends the wait. */
  readonly startWait?: { readonly timeoutMs?: number; readonly signal?: AbortSignal };
}

export interface TelegramAdapter extends ChatAdapter {
  readonly platform: 'telegram';
  readonly bot: Bot;
  /** Where the webhook server listens, once started in webhook mode. */
  webhookAddress(): AddressInfo | undefined;
}

/** Updates we handle; Telegram then does not send (or queue) the others. */
const ALLOWED_UPDATES = ['message', 'channel_post', 'callback_query', 'my_chat_member'] as const;
const WITH_INLINE = [...ALLOWED_UPDATES, 'inline_query'] as const;
/** Longer than the 30 s long poll; a send that hangs this long is given up. */
const REQUEST_TIMEOUT_S = 60;
/** Claims of dead instances taken over at once, at most this many per look. */
const TAKEOVER_BATCH = 20;

export function createTelegramAdapter(o: TelegramAdapterOptions): TelegramAdapter {
  const log = o.log;
  // One agent for replies, alerts and polling: it never writes on a kept-alive connection the server closed.
  const baseFetchConfig = { agent: botApiAgent(o.apiRoot ?? 'https://api.telegram.org') };
  const client = { ...(o.apiRoot ? { apiRoot: o.apiRoot } : {}), timeoutSeconds: REQUEST_TIMEOUT_S, baseFetchConfig };
  const bot = new Bot(o.token, { client });
  const pacer = new Pacer(o.pacing);
  // Replies wait out short flood waits: a 429 means nothing was posted, so a retry cannot duplicate.
  // Everything the bot's own Api sends answers someone: it leaves part of a group's minute to alerts.
  bot.api.config.use(pacingTransformer(pacer, { retries: 3, maxWaitMs: 60 * pacer.secondMs, pace: { reply: true } }));
  let poller: Poller | undefined;
  const botId = o.token.split(':')[0];
  const leaseMs = o.claimLeaseMs ?? 10_000;
  const claims = o.store.claims(`telegram:${botId}`, o.instanceId ?? randomUUID(), { leaseMs });
  const keyOf = (update: Update) => String(update.update_id);
  bot.api.config.use(async (prev, method, payload, signal) => {
    try {
      const res = await prev(method, payload, signal);
      if (method === 'getUpdates') {
        poller?.answered(res.ok);
        // The next getUpdates confirms these to Telegram, and the runner asks for it as soon as this
        // returns: so each is claimed (with its body, for a takeover) first. If the store cannot take
        // them, this batch fails and is fetched again: nothing is confirmed that nobody holds.
        if (res.ok) await claimBatch(res.result as Update[]);
      }
      return res;
    } catch (err) {
      // The runner retries polling quietly (silent: true keeps it off the console); say so in our log.
      if (method === 'getUpdates' && !signal?.aborted) log.warn({ err }, 'telegram: polling failed; retrying');
      throw err;
    }
  });
  // Alerts get their own transport: paced the same (one Pacer), but a 429, or a chat whose own limit is further
  // away than one send interval, goes back to delivery, which schedules that destination and serves the others.
  // Only new alerts may pay (pacing.paid, opted in): replies, merged bursts, digests and notices never cost Stars.
  const sender: Sender = createTelegramSender({ ...deliveryApis(o.token, client, pacer), log, pacer });

  const inflight = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>): void => {
    inflight.add(p);
    const drop = () => void inflight.delete(p);
    p.then(drop, drop);
  };
  let lastUpdateId = 0;
  // The one error boundary, first in the chain: nothing below may reject. In webhook mode
  // grammY answers Telegram after a timeout and leaves the handler running; a rejection
  // after that would be unhandled, crash the process, and print the token with it.
  bot.use(async (ctx, next) => {
    lastUpdateId = Math.max(lastUpdateId, ctx.update.update_id);
    const claimed = await claimOne(ctx.update);
    if (claimed === false) return;
    const handled = next()
      .catch((err: unknown) => bot.errorHandler(new BotError(err, ctx)))
      .catch((err: unknown) => log.error({ err }, 'telegram: error handler failed'))
      .then(() => claimed && finish(ctx.update));
    track(handled);
    await handled;
  });
  bot.use(sequentialize((ctx) => (ctx.chat ? String(ctx.chat.id) : undefined)));
  // A banned chat or user is ignored everywhere: commands, pastes, buttons, inline queries.
  bot.use(async (ctx, next) => {
    const u = ctx.update;
    const what =
      u.message || u.edited_message || u.channel_post
        ? 'message'
        : u.callback_query
          ? 'button'
          : u.inline_query
            ? 'inline'
            : undefined;
    const origin = {
      platform: 'telegram' as const,
      userId: ctx.from ? String(ctx.from.id) : undefined,
      chatId: ctx.chat ? String(ctx.chat.id) : undefined,
      senderChatId: ctx.senderChat ? String(ctx.senderChat.id) : undefined,
    };
    if (what && (await ignored(o.store.owner, origin, what, log))) return;
    await next();
  });
  const refusals = new RepeatedRefusals(pacer.minuteMs, o.pacing?.now);
  const handlers = { dispatcher: o.dispatcher, store: o.store, log, admins: createAdminCheck(bot.api, log), refusals };
  installPromptAnswers(bot, handlers);
  if (o.autoCards) installAutoCards(bot, { autoCards: o.autoCards, log });
  if (o.api) installInline(bot, { api: o.api, log, ...(o.lookups ? { lookups: o.lookups } : {}) });
  const allowed = o.api ? WITH_INLINE : ALLOWED_UPDATES;
  installHandlers(bot, handlers);
  bot.catch(async (err) => {
    log.error({ update: err.ctx.update.update_id, err: err.error }, 'telegram: update failed');
    const to = migrateToOf(err.error);
    const from = err.ctx.chat?.id;
    if (to !== undefined && from !== undefined) {
      await migrateSubscription(o.store.subscriptions, String(from), String(to), log).catch((e: unknown) =>
        log.warn({ err: e }, 'telegram: migration failed'),
      );
    }
  });

  async function claimBatch(updates: readonly Update[]): Promise<void> {
    if (!updates.length) return;
    try {
      await claims.take(updates.map((u) => ({ key: keyOf(u), payload: u })));
    } catch (err) {
      throw new Error(`could not claim ${updates.length} updates in the store; they will be fetched again`, {
        cause: err,
      });
    }
  }

  /**
   * Each update is handled by one instance at a time: a webhook retry or an
   * update a former poller had not confirmed is dropped when it is done, or
   * left to its live holder. True: ours to handle and finish; false: skip;
   * undefined: the store did not answer, and handling it beats losing it.
   */
  async function claimOne(update: Update): Promise<boolean | undefined> {
    try {
      const [r] = await claims.take([{ key: keyOf(update), payload: update }]);
      if (r === 'mine') return true;
      log.info(
        { update: update.update_id },
        r === 'done'
          ? 'telegram: update already handled; skipped'
          : 'telegram: update being handled elsewhere; skipped',
      );
      return false;
    } catch (err) {
      log.warn({ err, update: update.update_id }, 'telegram: could not claim the update; handling it anyway');
      return undefined;
    }
  }

  async function finish(update: Update): Promise<void> {
    await claims.finish(keyOf(update)).catch((err: unknown) =>
      // Left running, the claim lapses and another instance handles the update again: a duplicate, not a loss.
      log.warn({ err, update: update.update_id }, 'telegram: could not mark the update done'),
    );
  }

  /**
   * Updates whose instance died while handling them (claimed, so Telegram will
   * not send them again) are taken over here, on any instance, once their
   * lease lapses. One look at a time.
   */
  let takeover: NodeJS.Timeout | undefined;
  let looking = false;
  let lookFailed = false;
  async function lookForOrphans(): Promise<void> {
    if (looking || state !== 'running') return;
    looking = true;
    try {
      const found = await claims.orphans(TAKEOVER_BATCH);
      lookFailed = false;
      for (const { payload } of found) {
        const update = payload as Update;
        log.warn({ update: update.update_id }, 'telegram: taking over an update its instance left unfinished');
        track(bot.handleUpdate(update).catch((err: unknown) => log.error({ err }, 'telegram: takeover failed')));
      }
    } catch (err) {
      if (!lookFailed) log.warn({ err }, 'telegram: could not look for unfinished updates; retrying');
      lookFailed = true;
    } finally {
      looking = false;
    }
  }

  let server: WebhookServer | undefined;
  let state: 'idle' | 'starting' | 'running' | 'stopped' = 'idle';

  async function registerCommands(): Promise<void> {
    const { commands, skipped } = botCommands(o.dispatcher.commands);
    if (skipped.length) log.warn({ skipped }, 'telegram: commands left out of the menu (Telegram would refuse them)');
    try {
      await bot.api.setMyCommands(commands);
    } catch (err) {
      // The menu is a convenience: typed commands work without it.
      log.warn({ err }, 'telegram: setMyCommands failed');
    }
    await registerLanguages();
    await registerOwners(commands);
  }

  /**
   * The owners' menu: in each owner's private chat (scope chat), the commands and
   * /owner; nowhere else. An owner who never wrote to the bot has no chat yet:
   * logged, and typed /owner works there anyway once they do.
   */
  async function registerOwners(commands: readonly { command: string; description: string }[]): Promise<void> {
    const ownerCommand = o.dispatcher.ownerCommand;
    if (!ownerCommand) return;
    const ids = [...o.dispatcher.owners].filter((id) => id.startsWith('telegram:')).map((id) => id.slice(9));
    const menu = [...commands, { command: ownerCommand.name, description: translator('en')('owner.description') }];
    const results = await Promise.allSettled(
      ids.map((chat_id) => bot.api.setMyCommands(menu, { scope: { type: 'chat', chat_id } })),
    );
    results.forEach((r, i) => {
      if (r.status === 'rejected') log.warn({ owner: ids[i], err: r.reason }, "telegram: the owner's menu was not set");
    });
  }

  /**
   * The menu's descriptions and the bot's profile texts in each language, set
   * side by side (one round trip, not 24); English is the default for every
   * other language. A refusal only costs that text: the bot works without it.
   */
  async function registerLanguages(): Promise<void> {
    const calls: [what: string, call: () => Promise<unknown>][] = [];
    for (const locale of LOCALES) {
      const t = translator(locale);
      const lang = locale === 'en' ? {} : { language_code: TELEGRAM_CODES[locale] as LanguageCode };
      // Each scope's menu (commands.ts MENU_SCOPES); the default scope in English is set first, above.
      for (const { scope, members } of MENU_SCOPES)
        if (locale !== 'en' || scope.type !== 'default')
          calls.push([
            `commands ${scope.type} ${locale}`,
            () => bot.api.setMyCommands(botCommands(o.dispatcher.commands, t, members).commands, { ...lang, scope }),
          ]);
      calls.push([`description ${locale}`, () => bot.api.setMyDescription(t('bot.description'), lang)]);
      calls.push([`short description ${locale}`, () => bot.api.setMyShortDescription(t('bot.shortDescription'), lang)]);
    }
    const results = await Promise.allSettled(calls.map(([, call]) => call()));
    const failed = calls.filter((_, i) => results[i]!.status === 'rejected').map(([what]) => what);
    if (failed.length)
      log.warn(
        { failed, err: (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason },
        'telegram: some localised texts were not set',
      );
  }

  /**
   * getMe, waited for as the store is (startup.ts): Telegram unreachable is
   * logged at once with the host and why, then reminders, then one line and a
   * StartupError once the wait is spent. A refused token is final at once.
   */
  async function reachTelegram(): Promise<void> {
    const host = new URL(o.apiRoot ?? 'https://api.telegram.org').host;
    await waitFor(
      {
        name: `Telegram (${host})`,
        hint: 'Check the network, DNS and any proxy between this host and Telegram (or TELEGRAM_API_ROOT)',
        attempt: async (signal) => {
          try {
            // A bare client: the replies' transport would retry a refused connection quietly first.
            bot.botInfo = await new Api(o.token, client).getMe(signal as Parameters<Api['getMe']>[0]);
          } catch (err) {
            if (err instanceof GrammyError)
              throw new StartupError(`Telegram refused the bot token (${err.error_code} ${err.description})`);
            throw new Error(explainConnectError(err) ?? (signal.aborted ? 'no answer (ETIMEDOUT)' : 'no answer'));
          }
        },
      },
      { timeoutMs: o.startWait?.timeoutMs ?? 30_000, log, signal: o.startWait?.signal },
    );
  }

  async function idle(): Promise<void> {
    while (inflight.size > 0) await Promise.allSettled([...inflight]);
  }

  return {
    platform: 'telegram',
    sender,
    bot,
    async start() {
      if (state !== 'idle') throw new Error(`telegram adapter cannot start: ${state}`);
      state = 'starting';
      // Paid broadcasts go on from the day's spending in the store (a restart does not spend the cap again).
      await o.pacing?.paid?.sync();
      await reachTelegram();
      await registerCommands();
      if (o.webhook) {
        server = await startWebhookServer(bot, o.webhook, track, log);
        await bot.api.setWebhook(o.webhook.url, { secret_token: o.webhook.secret, allowed_updates: [...allowed] });
      } else {
        // A webhook left set would make every getUpdates answer 409.
        await bot.api.deleteWebhook();
        poller = createPoller({ bot, lease: o.pollLease ?? localLease(), log, allowedUpdates: allowed });
        await poller.start();
      }
      state = 'running';
      takeover = setInterval(() => void lookForOrphans(), Math.max(50, Math.floor(leaseMs / 2)));
      takeover.unref();
      void lookForOrphans();
      log.info({ username: bot.botInfo.username, mode: o.webhook ? 'webhook' : 'polling' }, 'telegram: ready');
    },
    async stop() {
      if (state !== 'running' && state !== 'starting') return;
      state = 'stopped';
      clearInterval(takeover);
      await server?.close();
      // Confirms what was handled, as bot.stop() does, so a restart does not handle it again;
      // then the lease goes, and a standby takes over at its next check.
      await poller?.stop(async () => {
        await idle();
        if (lastUpdateId === 0) return;
        await bot.api.getUpdates({ offset: lastUpdateId + 1, limit: 1, timeout: 0 }).catch((err: unknown) => {
          if (!isConflict(err)) log.warn({ err }, 'telegram: could not confirm the last update');
        });
      });
      await idle();
      await o.pacing?.paid?.close();
      claims.close();
    },
    isReady() {
      if (state !== 'running') return false;
      // A standby is ready: it serves nothing from Telegram until it holds the lease, by design.
      return poller ? poller.role() !== 'poller' || poller.polling() : server !== undefined;
    },
    // For /readyz and metrics: the polling role is 'poller', 'standby' or 'backoff' (waiting out a 409).
    roles: () => ({ mode: server ? 'webhook' : 'polling', ...(poller ? { poller: poller.role() } : {}) }),
    webhookAddress: () => server?.address,
  };
}
