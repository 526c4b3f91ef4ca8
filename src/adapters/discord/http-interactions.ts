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
import { rememberChannel } from './caller.ts';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_HOST } from '../../config/fields.ts';
import { createGuardedServer, type Verified } from '../../ops/limits.ts';
import { createBodyReader, refuseAndClose, REFUSAL_STATUS, type BodyLimits, type BodyReader } from '../../ops/body.ts';
import { createRefusals, type Refusals } from '../../ops/refusals.ts';
import type { AddressInfo } from 'node:net';
import type { Client } from 'discord.js';
import type { Logger } from 'pino';

export interface HttpInteractionsOptions {
  /** The application's public key (hex, from the Developer Portal's General Information tab). */
  readonly publicKey: string;
  readonly port: number;
  /** Interface to listen on; default 127.0.0.1 (a TLS proxy or load balancer in front opens it deliberately). */
  readonly host?: string;
  /** How bodies are read (limits, or a reader a test inspects); BODY_LIMITS by default. */
  readonly body?: Partial<BodyLimits> | BodyReader;
  /** Called for each refused request, by reason (the metric); the log gets a summary per minute. */
  readonly onRefused?: (reason: string) => void;
}

export interface HttpInteractionsServer {
  readonly address: AddressInfo;
  close(): Promise<void>;
}

/** A signed request older (or newer) than this is refused: a captured request cannot be replayed later. */
export const MAX_SKEW_S = 60;
/** Discord gives up after 3 s; past this the request is answered with an error instead of hanging. */
const FIRST_RESPONSE_MS = 2800;
/**
 * Discord's interactions are a few KB; the largest (a message command on a
 * long message with embeds, resolved users and attachments) stays far below
 * the cap. 32 such bodies at once is more than Discord ever has in flight to
 * one instance, and bounds the memory all bodies being read can hold.
 */
export const BODY_LIMITS: BodyLimits = { maxBytes: 256 * 1024, budgetBytes: 8 * 1024 * 1024, deadlineMs: 2_000 };
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
  const headers = headersCheck(signatureHex, timestamp, nowS);
  if (headers === 'bad') return 'bad';
  const ok = verify(null, Buffer.concat([Buffer.from(timestamp!), body]), key, Buffer.from(signatureHex!, 'hex'));
  return ok ? headers : 'bad';
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

/**
 * discord.js builds interactions only from gateway events: no public call takes
 * one that arrived over HTTP, so the payload goes to the handler its gateway
 * uses (`client.actions.InteractionCreate`, internal). Looked up and checked
 * here, at start-up, so a discord.js release that moves it stops the start with
 * a clear error instead of failing every interaction.
 */
export function gatewayInteractionHandler(client: Client): (data: unknown) => void {
  const actions: unknown = Reflect.get(client, 'actions');
  const action: unknown =
    actions && typeof actions === 'object' ? Reflect.get(actions, 'InteractionCreate') : undefined;
  const handle: unknown = action && typeof action === 'object' ? Reflect.get(action, 'handle') : undefined;
  if (typeof handle !== 'function')
    throw new Error(
      'discord.js has no client.actions.InteractionCreate.handle: HTTP interactions need a supported version',
    );
  return (data) => {
    rememberChannel(data);
    void handle.call(action, data);
  };
}

/**
 * The signature headers, checked before a byte of the body is read: missing or
 * malformed ones, or a timestamp outside the window, cannot belong to a request
 * Discord sent now, whatever the body.
 */
export function headersCheck(
  signatureHex: string | undefined,
  timestamp: string | undefined,
  nowS: number,
): 'ok' | 'bad' | 'stale' {
  if (!signatureHex || !timestamp || !/^[0-9a-f]{128}$/i.test(signatureHex) || !/^\d{1,12}$/.test(timestamp))
    return 'bad';
  return Math.abs(nowS - Number(timestamp)) > MAX_SKEW_S ? 'stale' : 'ok';
}

/**
 * The admission path: headers, then a capped body read on a deadline and a
 * shared byte budget, then the Ed25519 signature. Until the signature holds,
 * the request's connection is among the first the server drops when full.
 * Answers and closes a refused request itself; returns the verified body.
 */
function admission(key: KeyObject, bodies: BodyReader, refusals: Refusals) {
  return async (req: IncomingMessage, res: ServerResponse, verified: Verified): Promise<Buffer | undefined> => {
    const sig = req.headers['x-signature-ed25519'] as string | undefined;
    const ts = req.headers['x-signature-timestamp'] as string | undefined;
    const early = headersCheck(sig, ts, Math.floor(Date.now() / 1000));
    if (early !== 'ok') {
      refusals.count(early === 'stale' ? 'stale' : 'signature');
      const message = early === 'stale' ? 'stale timestamp' : 'invalid request signature';
      return void refuseAndClose(res, 401, JSON.stringify({ message }), 'application/json');
    }
    const read = await bodies.read(req);
    if ('refused' in read) {
      refusals.count(read.refused);
      return void refuseAndClose(
        res,
        REFUSAL_STATUS[read.refused],
        JSON.stringify({ message: read.refused }),
        'application/json',
      );
    }
    const check = verifySignature(key, sig, ts, read.body, Math.floor(Date.now() / 1000));
    if (check !== 'ok') {
      refusals.count(check === 'stale' ? 'stale' : 'signature');
      const message = check === 'stale' ? 'stale timestamp' : 'invalid request signature';
      return void refuseAndClose(res, 401, JSON.stringify({ message }), 'application/json');
    }
    verified();
    return read.body;
  };
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
  const handle = gatewayInteractionHandler(client);

  const json = (res: ServerResponse, status: number, body: unknown) => {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const admit = admission(
    key,
    o.body && 'read' in o.body ? o.body : createBodyReader({ ...BODY_LIMITS, ...o.body }),
    createRefusals({ log, what: 'discord interactions', ...(o.onRefused ? { onRefused: o.onRefused } : {}) }),
  );

  async function onRequest(req: IncomingMessage, res: ServerResponse, verified: Verified): Promise<void> {
    if ((req.url ?? '/').split('?')[0] !== '/interactions') return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const body = await admit(req, res, verified);
    if (!body) return;
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
    handle(data);
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
  const { server, close } = createGuardedServer(
    (req, res, verified) => {
      const done = onRequest(req, res, verified).catch((err: unknown) => {
        log.error({ err }, 'discord: interaction request failed');
        json(res, 500, { message: 'internal error' });
      });
      hooks.track(done);
    },
    {},
    { verifies: true },
  );
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
