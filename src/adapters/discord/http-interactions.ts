/**
 * Discord's HTTP interactions: with an Interactions Endpoint URL set in the
 * Developer Portal, Discord POSTs every interaction to it instead of sending
 * it down the gateway, so any number of instances behind a load balancer each
 * answer what they receive, with no gateway session at all.
 *
 * Only two things differ from the gateway path, and both live here: how an
 * interaction arrives (a signed POST, turned into the same discord.js
 * interaction object the gateway would give, and emitted to the same
 * listener), and how the first response leaves (as the HTTP answer to that
 * POST instead of a call to the callback route). The handlers, the
 * dispatcher and the renderers are the gateway's.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_HOST } from '../../config.ts';
import { createGuardedServer } from '../../ops/limits.ts';
import type { AddressInfo } from 'node:net';
import type { Client } from 'discord.js';
import type { Logger } from 'pino';

export interface HttpInteractionsOptions {
  /** The application's public key (hex, from the Developer Portal's General Information tab). */
  readonly publicKey: string;
  readonly port: number;
  /** Interface to listen on; default 127.0.0.1 (a TLS proxy or load balancer in front opens it deliberately). */
  readonly host?: string;
}

export interface HttpInteractionsServer {
  readonly address: AddressInfo;
  close(): Promise<void>;
}

/** A signed request older (or newer) than this is refused: a captured request cannot be replayed later. */
export const MAX_SKEW_S = 60;
/** Discord gives up after 3 s; past this the request is answered with an error instead of hanging. */
const FIRST_RESPONSE_MS = 2800;
const BODY_MAX = 1024 * 1024;
const PING = 1;
const PONG = { type: 1 };
/** The ASN.1 prefix that turns a raw 32-byte Ed25519 key into an SPKI DER key node:crypto reads. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export function publicKeyFromHex(hex: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
}

/** Discord's check: Ed25519 over timestamp + raw body, with the application's public key. */
export function verifySignature(
  key: KeyObject,
  signatureHex: string | undefined,
  timestamp: string | undefined,
  body: Buffer,
  nowS: number,
): 'ok' | 'bad' | 'stale' {
  if (!signatureHex || !timestamp || !/^[0-9a-f]{128}$/i.test(signatureHex) || !/^\d{1,12}$/.test(timestamp))
    return 'bad';
  const ok = verify(null, Buffer.concat([Buffer.from(timestamp), body]), key, Buffer.from(signatureHex, 'hex'));
  if (!ok) return 'bad';
  return Math.abs(nowS - Number(timestamp)) > MAX_SKEW_S ? 'stale' : 'ok';
}

type FirstResponse = (body: unknown) => void;

/**
 * Routes the first response of each interaction that arrived over HTTP into
 * its pending HTTP answer. discord.js sends a first response (reply, defer,
 * update, autocomplete result) as POST /interactions/:id/:token/callback on
 * the client's REST instance; that one call is answered here instead, and
 * every other request (edits, follow-ups, alerts) goes to Discord as usual.
 */
function bridgeFirstResponses(client: Client, log: Logger): Map<string, FirstResponse> {
  const pending = new Map<string, FirstResponse>();
  const rest = client.rest;
  const post = rest.post.bind(rest);
  const CALLBACK = /^\/interactions\/(\d+)\/[^/]+\/callback$/;
  rest.post = (async (route: `/${string}`, options: Parameters<typeof post>[1] = {}) => {
    const id = CALLBACK.exec(route)?.[1];
    const answer = id === undefined ? undefined : pending.get(id);
    if (!answer) return post(route, options);
    pending.delete(id!);
    // Our handlers' first responses never carry files (pictures come with the edit that follows a defer).
    if (options.files?.length)
      log.warn({ interaction: id }, 'a first response with files cannot go in the HTTP answer; files dropped');
    answer(options.body);
    return undefined;
  }) as typeof rest.post;
  return pending;
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > BODY_MAX) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
  });
}

/**
 * Serves POST /interactions. `emit` hands a verified interaction to the
 * client (discord.js builds the interaction object and emits it to the
 * adapter's one listener); `track` lets stop() wait for requests in flight.
 */
export async function startHttpInteractions(
  client: Client,
  o: HttpInteractionsOptions,
  log: Logger,
  hooks: { track(p: Promise<unknown>): void; firstTime?(interactionId: string): Promise<boolean> },
): Promise<HttpInteractionsServer> {
  const key = publicKeyFromHex(o.publicKey);
  const pending = bridgeFirstResponses(client, log);
  const actions = (client as unknown as { actions: { InteractionCreate: { handle(data: unknown): void } } }).actions;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if ((req.url ?? '/').split('?')[0] !== '/interactions') return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const body = await readBody(req);
    if (!body) return json(res, 413, { message: 'body too large' });
    const check = verifySignature(
      key,
      req.headers['x-signature-ed25519'] as string | undefined,
      req.headers['x-signature-timestamp'] as string | undefined,
      body,
      Math.floor(Date.now() / 1000),
    );
    if (check !== 'ok') {
      log.warn({ reason: check }, 'discord: interaction request refused (signature)');
      return json(res, 401, { message: check === 'stale' ? 'stale timestamp' : 'invalid request signature' });
    }
    let data: { id?: unknown; type?: unknown };
    try {
      data = JSON.parse(body.toString('utf8')) as { id?: unknown; type?: unknown };
    } catch {
      return json(res, 400, { message: 'invalid JSON' });
    }
    if (data.type === PING) return json(res, 200, PONG);
    if (typeof data.id !== 'string') return json(res, 400, { message: 'no interaction id' });
    const id = data.id;
    // Discord sends an interaction once; the same one again is a replay of a captured request.
    if (hooks.firstTime && !(await hooks.firstTime(id).catch(() => true)))
      return json(res, 409, { message: 'interaction already received' });
    const first = new Promise<unknown>((resolve) => pending.set(id, resolve));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), FIRST_RESPONSE_MS)));
    actions.InteractionCreate.handle(data);
    const response = await Promise.race([first, late]);
    clearTimeout(timer);
    pending.delete(id);
    if (response === undefined) {
      log.warn({ interaction: id }, 'discord: no first response within 3 s');
      return json(res, 500, { message: 'no response' });
    }
    json(res, 200, response);
  }

  // The same connection cap, timeouts and keep-alive limits as the other servers (see ops/limits.ts).
  const { server, close } = createGuardedServer((req, res) => {
    const done = onRequest(req, res).catch((err: unknown) => {
      log.error({ err }, 'discord: interaction request failed');
      json(res, 500, { message: 'internal error' });
    });
    hooks.track(done);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? DEFAULT_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    address: server.address() as AddressInfo,
    close,
  };
}
