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
import type { AddressInfo } from 'node:net';
import { run, sequentialize, type RunnerHandle } from '@grammyjs/runner';
import { Api, Bot, BotError } from 'grammy';
import type { Logger } from 'pino';
import type { Sender } from '../../alerts/delivery.ts';
import type { KolClient } from '../../api/index.ts';
import type { AutoCards } from '../../core/autocard.ts';
import type { Dispatcher } from '../../core/dispatch.ts';
import type { Store } from '../../store/index.ts';
import type { ChatAdapter } from '../types.ts';
import { createAdminCheck } from './admin.ts';
import { installAutoCards } from './autocard.ts';
import { botCommands } from './commands.ts';
import { installHandlers } from './handlers.ts';
import { installInline } from './inline.ts';
import { migrateSubscription } from './migrate.ts';
import { Pacer, type PacingOptions } from './pacer.ts';
import { createTelegramSender } from './sender.ts';
import { errFields, migrateToOf, pacingTransformer } from './transport.ts';
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
  /** Telegram's limits by default; tests scale time to run a fake's shorter clock. */
  readonly pacing?: PacingOptions;
  /** Cards for pasted addresses and links; without it pastes are ignored. */
  readonly autoCards?: AutoCards;
  /** Answers inline queries (`@bot <query>`); without it they are not asked for. */
  readonly api?: KolClient;
}

export interface TelegramAdapter extends ChatAdapter {
  readonly platform: 'telegram';
  readonly bot: Bot;
  /** Where the webhook server listens, once started in webhook mode. */
  webhookAddress(): AddressInfo | undefined;
}

/** Updates we handle; Telegram then does not send (or queue) the others. */
const ALLOWED_UPDATES = ['message', 'callback_query', 'my_chat_member'] as const;
const WITH_INLINE = [...ALLOWED_UPDATES, 'inline_query'] as const;
/** Longer than the 30 s long poll; a send that hangs this long is given up. */
const REQUEST_TIMEOUT_S = 60;

export function createTelegramAdapter(o: TelegramAdapterOptions): TelegramAdapter {
  const log = o.log;
  const client = { ...(o.apiRoot ? { apiRoot: o.apiRoot } : {}), timeoutSeconds: REQUEST_TIMEOUT_S };
  const bot = new Bot(o.token, { client });
  const pacer = new Pacer(o.pacing);
  // Replies wait out short flood waits: a 429 means nothing was posted, so a retry cannot duplicate.
  bot.api.config.use(pacingTransformer(pacer, { retries: 3, maxWaitMs: 60 * pacer.secondMs }));
  bot.api.config.use(async (prev, method, payload, signal) => {
    try {
      return await prev(method, payload, signal);
    } catch (err) {
      // The runner retries polling quietly (silent: true keeps it off the console); say so in our log.
      if (method === 'getUpdates' && !signal?.aborted) log.warn({ err: errFields(err) }, 'telegram: polling failed; retrying');
      throw err;
    }
  });
  // Alerts get their own transport: paced the same (one Pacer), but a 429 goes back to delivery, which reschedules.
  const senderApi = new Api(o.token, { ...client, timeoutSeconds: 30 });
  senderApi.config.use(pacingTransformer(pacer, { retries: 0, maxWaitMs: 0 }));
  const sender: Sender = createTelegramSender({ api: senderApi, log, secondMs: pacer.secondMs });

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
    const handled = next().catch((err: unknown) => bot.errorHandler(new BotError(err, ctx))).catch((err: unknown) => log.error({ err: errFields(err) }, 'telegram: error handler failed'));
    track(handled);
    await handled;
  });
  bot.use(sequentialize((ctx) => (ctx.chat ? String(ctx.chat.id) : undefined)));
  if (o.autoCards) installAutoCards(bot, { autoCards: o.autoCards, log });
  if (o.api) installInline(bot, { api: o.api, log });
  const allowed = o.api ? WITH_INLINE : ALLOWED_UPDATES;
  installHandlers(bot, { dispatcher: o.dispatcher, store: o.store, log, admins: createAdminCheck(bot.api, log) });
  bot.catch(async (err) => {
    log.error({ update: err.ctx.update.update_id, err: errFields(err.error) }, 'telegram: update failed');
    const to = migrateToOf(err.error);
    const from = err.ctx.chat?.id;
    if (to !== undefined && from !== undefined) {
      await migrateSubscription(o.store.subscriptions, String(from), String(to), log).catch((e: unknown) => log.warn({ err: errFields(e) }, 'telegram: migration failed'));
    }
  });

  let runner: RunnerHandle | undefined;
  let server: WebhookServer | undefined;
  let state: 'idle' | 'starting' | 'running' | 'stopped' = 'idle';

  async function registerCommands(): Promise<void> {
    const { commands, skipped } = botCommands(o.dispatcher.commands);
    if (skipped.length) log.warn({ skipped }, 'telegram: commands left out of the menu (Telegram would refuse them)');
    try {
      await bot.api.setMyCommands(commands);
    } catch (err) {
      // The menu is a convenience: typed commands work without it.
      log.warn({ err: errFields(err) }, 'telegram: setMyCommands failed');
    }
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
      await bot.init();
      await registerCommands();
      if (o.webhook) {
        server = await startWebhookServer(bot, o.webhook, track, log);
        await bot.api.setWebhook(o.webhook.url, { secret_token: o.webhook.secret, allowed_updates: [...allowed] });
      } else {
        await bot.api.deleteWebhook();
        runner = run(bot, { runner: { fetch: { allowed_updates: [...allowed], timeout: 30 }, silent: true } });
        runner.task()?.catch((err: unknown) => log.error({ err: errFields(err) }, 'telegram: polling stopped'));
      }
      state = 'running';
      log.info({ username: bot.botInfo.username, mode: o.webhook ? 'webhook' : 'polling' }, 'telegram: ready');
    },
    async stop() {
      if (state !== 'running' && state !== 'starting') return;
      state = 'stopped';
      await runner?.stop();
      await server?.close();
      await idle();
      if (runner && lastUpdateId > 0) {
        // Confirms what was handled, as bot.stop() does, so a restart does not handle it again.
        await bot.api.getUpdates({ offset: lastUpdateId + 1, limit: 1, timeout: 0 }).catch((err: unknown) => log.warn({ err: errFields(err) }, 'telegram: could not confirm the last update'));
      }
    },
    isReady() {
      if (state !== 'running') return false;
      return runner ? runner.isRunning() : server !== undefined;
    },
    webhookAddress: () => server?.address,
  };
}
