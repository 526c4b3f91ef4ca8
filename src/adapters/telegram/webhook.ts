/**
 * Webhook mode: Telegram POSTs each update to our HTTPS URL (through whatever
 * terminates TLS in front of this plain HTTP server). grammY's webhookCallback
 * checks the X-Telegram-Bot-Api-Secret-Token header against the secret given
 * to setWebhook in constant time and answers 401 before reading the body, so a
 * request without it dispatches nothing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BotError, webhookCallback, type Bot } from 'grammy';
import type { Logger } from 'pino';

export interface WebhookOptions {
  /** Public HTTPS URL Telegram calls; its path is the one this server answers on. */
  readonly url: string;
  readonly secret: string;
  readonly port: number;
  /** Interface to listen on; default all (a proxy or the platform's router sits in front). */
  readonly host?: string;
}

export interface WebhookServer {
  readonly address: AddressInfo;
  close(): Promise<void>;
}

/**
 * Telegram waits about a minute for an answer and then sends the update
 * again; answering after this long while the handler carries on avoids that.
 */
const ANSWER_WITHIN_MS = 20_000;

export async function startWebhookServer(bot: Bot, o: WebhookOptions, track: (p: Promise<unknown>) => void, log: Logger): Promise<WebhookServer> {
  const path = new URL(o.url).pathname;
  const handle = webhookCallback(bot, 'http', { secretToken: o.secret, onTimeout: 'return', timeoutMilliseconds: ANSWER_WITHIN_MS });
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const reqPath = (req.url ?? '/').split('?')[0];
    if (reqPath !== path) return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const done = handle(req, res).catch(async (err: unknown) => {
      // The same error boundary as polling; Telegram gets a 200 so it does not resend the update.
      if (err instanceof BotError) await bot.errorHandler(err);
      else log.warn({ err }, 'telegram: webhook request failed');
      if (!res.headersSent) res.writeHead(200).end();
    });
    track(done);
  };
  const server: Server = createServer(onRequest);
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
