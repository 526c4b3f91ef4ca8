/**
 * Webhook mode: Telegram POSTs each update to our HTTPS URL (through whatever
 * terminates TLS in front of this plain HTTP server). grammY's webhookCallback
 * checks the X-Telegram-Bot-Api-Secret-Token header against the secret given
 * to setWebhook in constant time and answers 401 before reading the body, so a
 * request without it dispatches nothing (and its connection is closed, the
 * body never drained). Bodies are read through our own adapter, capped, on a
 * short deadline and within a byte budget shared by all requests (ops/body.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BotError, webhookCallback, type Bot } from 'grammy';
import type { Update } from 'grammy/types';
import type { Logger } from 'pino';
import { createGuardedServer, type ServerLimits, type Verified } from '../../ops/limits.ts';
import {
  createBodyReader,
  refuseAndClose,
  REFUSAL_STATUS,
  type BodyLimits,
  type BodyReader,
  type BodyRefusal,
} from '../../ops/body.ts';
import { createRefusals, type Refusals } from '../../ops/refusals.ts';

export interface WebhookOptions {
  /** Public HTTPS URL Telegram calls; its path is the one this server answers on. */
  readonly url: string;
  readonly secret: string;
  readonly port: number;
  /** Interface to listen on; default 127.0.0.1 (a TLS proxy in front reaches it there). */
  readonly host?: string;
  /** Connection and timeout limits; the defaults suit Telegram (at most 40 connections at once). */
  readonly limits?: Partial<ServerLimits>;
  /** How bodies are read (limits, or a reader a test inspects); BODY_LIMITS by default. */
  readonly body?: Partial<BodyLimits> | BodyReader;
  /** Called for each refused request, by reason (the metric); the log gets a summary per minute. */
  readonly onRefused?: (reason: string) => void;
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

/** Bodies held at once: Telegram opens at most 40 connections (max_connections), each with one update. */
export const BODY_LIMITS: BodyLimits = {
  maxBytes: MAX_BODY_BYTES,
  budgetBytes: 16 * MAX_BODY_BYTES,
  deadlineMs: 3_000,
};

class BodyRefused extends Error {
  override name = 'BodyRefused';
  readonly reason: BodyRefusal;
  constructor(reason: BodyRefusal) {
    super(reason);
    this.reason = reason;
  }
}

/**
 * grammY's 'http' adapter. grammY compares the secret header before it asks
 * for `update`, so the body is read only for a request that carries the secret,
 * and only then does the request keep its connection when the server is full.
 */
function boundedAdapter(bodies: BodyReader, refusals: Refusals) {
  return (req: IncomingMessage, res: ServerResponse, verified: Verified) => {
    const header = req.headers['x-telegram-bot-api-secret-token'];
    return {
      get update(): Promise<Update> {
        verified();
        return bodies.read(req).then((r) => {
          if ('refused' in r) throw new BodyRefused(r.refused);
          return JSON.parse(r.body.toString('utf8')) as Update;
        });
      },
      header: Array.isArray(header) ? header[0] : header,
      end: () => void res.end(),
      respond: (json: string) => void res.writeHead(200, { 'content-type': 'application/json' }).end(json),
      unauthorized: () => {
        refusals.count('secret');
        refuseAndClose(res, 401, 'secret token is wrong');
      },
    };
  };
}

export async function startWebhookServer(
  bot: Bot,
  o: WebhookOptions,
  track: (p: Promise<unknown>) => void,
  log: Logger,
): Promise<WebhookServer> {
  const path = new URL(o.url).pathname;
  const refusals = createRefusals({
    log,
    what: 'telegram webhook',
    ...(o.onRefused ? { onRefused: o.onRefused } : {}),
  });
  const bodies = o.body && 'read' in o.body ? o.body : createBodyReader({ ...BODY_LIMITS, ...o.body });
  const handle = webhookCallback(bot, boundedAdapter(bodies, refusals), {
    secretToken: o.secret,
    onTimeout: 'return',
    timeoutMilliseconds: ANSWER_WITHIN_MS,
  });
  const onRequest = (req: IncomingMessage, res: ServerResponse, verified: Verified): void => {
    const reqPath = (req.url ?? '/').split('?')[0];
    if (reqPath !== path) return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const done = Promise.resolve(handle(req, res, verified)).catch(async (err: unknown) => {
      if (err instanceof BodyRefused) {
        refusals.count(err.reason);
        return refuseAndClose(res, REFUSAL_STATUS[err.reason]);
      }
      // The same error boundary as polling; Telegram gets a 200 so it does not resend the update.
      if (err instanceof BotError) await bot.errorHandler(err);
      else log.warn({ err }, 'telegram: webhook request failed');
      if (!res.headersSent) res.writeHead(200).end();
    });
    track(done);
  };
  const { server, close } = createGuardedServer(onRequest, o.limits, { verifies: true });
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
