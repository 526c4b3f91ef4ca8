/**
 * Webhook mode: Telegram POSTs each update to our HTTPS URL (through whatever
 * terminates TLS in front of this plain HTTP server). grammY's webhookCallback
 * checks the X-Telegram-Bot-Api-Secret-Token header against the secret given
 * to setWebhook in constant time and answers 401 before reading the body, so a
 * request without it dispatches nothing. Bodies are read through our own
 * adapter, which refuses more than MAX_BODY_BYTES while counting the stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BotError, webhookCallback, type Bot } from 'grammy';
import type { Update } from 'grammy/types';
import type { Logger } from 'pino';
import { createGuardedServer, type ServerLimits } from '../../ops/limits.ts';

export interface WebhookOptions {
  /** Public HTTPS URL Telegram calls; its path is the one this server answers on. */
  readonly url: string;
  readonly secret: string;
  readonly port: number;
  /** Interface to listen on; default 127.0.0.1 (a TLS proxy in front reaches it there). */
  readonly host?: string;
  /** Connection and timeout limits; the defaults suit Telegram (at most 40 connections at once). */
  readonly limits?: Partial<ServerLimits>;
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

/** Telegram updates are a few kilobytes; anything near this is not one. */
export const MAX_BODY_BYTES = 1024 * 1024;

class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

/** Reads the body, giving up (without keeping it) as soon as it passes `max` bytes. */
function readBounded(req: IncomingMessage, max: number): Promise<Update> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.off('data', onData);
        chunks.length = 0;
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Update);
      } catch (err) {
        reject(err);
      }
    });
    req.once('error', reject);
  });
}

/** grammY's 'http' adapter, with the body read by readBounded. */
function boundedAdapter(req: IncomingMessage, res: ServerResponse) {
  const header = req.headers['x-telegram-bot-api-secret-token'];
  return {
    get update() {
      return readBounded(req, MAX_BODY_BYTES);
    },
    header: Array.isArray(header) ? header[0] : header,
    end: () => void res.end(),
    respond: (json: string) => void res.writeHead(200, { 'content-type': 'application/json' }).end(json),
    unauthorized: () => void res.writeHead(401).end('secret token is wrong'),
  };
}

/** 413 and the connection closed, so the rest of an oversized body is never read. */
function refuseTooLarge(res: ServerResponse): void {
  if (res.headersSent) return void res.socket?.destroy();
  res.writeHead(413, { connection: 'close' }).end(() => res.socket?.destroy());
}

export async function startWebhookServer(
  bot: Bot,
  o: WebhookOptions,
  track: (p: Promise<unknown>) => void,
  log: Logger,
): Promise<WebhookServer> {
  const path = new URL(o.url).pathname;
  const handle = webhookCallback(bot, boundedAdapter, {
    secretToken: o.secret,
    onTimeout: 'return',
    timeoutMilliseconds: ANSWER_WITHIN_MS,
  });
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const reqPath = (req.url ?? '/').split('?')[0];
    if (reqPath !== path) return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      refuseTooLarge(res);
      return;
    }
    const done = Promise.resolve(handle(req, res)).catch(async (err: unknown) => {
      if (err instanceof BodyTooLarge) return refuseTooLarge(res);
      // The same error boundary as polling; Telegram gets a 200 so it does not resend the update.
      if (err instanceof BotError) await bot.errorHandler(err);
      else log.warn({ err }, 'telegram: webhook request failed');
      if (!res.headersSent) res.writeHead(200).end();
    });
    track(done);
  };
  const { server, close } = createGuardedServer(onRequest, o.limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    address: server.address() as AddressInfo,
    close,
  };
}
