// HTTP plumbing: routing, bodies (JSON or multipart), bot auth, rate limits, failure
// injection and the request log.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { interactionCallback, webhookExecute, webhookMessage } from './interaction-routes.ts';
import type { UploadedFile } from './messages.ts';
import * as rest from './rest.ts';
import { error } from './route-types.ts';
import type { Ctx, Handler, Reply } from './route-types.ts';
import type { ChannelHold, FakeState } from './state.ts';
import type { BucketSpec } from './types.ts';

type Kind = 'bot' | 'webhook' | 'callback';

interface Route {
  method: string;
  segments: string[];
  template: string;
  kind: Kind;
  handler: Handler;
}

const table: [string, string, Kind, Handler][] = [
  ['GET', '/gateway/bot', 'bot', rest.gatewayBot],
  ['GET', '/gateway', 'bot', rest.gateway],
  ['GET', '/users/@me', 'bot', rest.currentUser],
  ['GET', '/applications/@me', 'bot', rest.currentApplication],
  ['PUT', '/applications/:applicationId/commands', 'bot', rest.putCommands],
  ['GET', '/applications/:applicationId/commands', 'bot', rest.getCommands],
  ['PUT', '/applications/:applicationId/guilds/:guildId/commands', 'bot', rest.putCommands],
  ['GET', '/applications/:applicationId/guilds/:guildId/commands', 'bot', rest.getCommands],
  ['GET', '/channels/:channelId', 'bot', rest.getChannel],
  ['POST', '/channels/:channelId/typing', 'bot', rest.typing],
  ['POST', '/channels/:channelId/messages', 'bot', rest.createMessage],
  ['POST', '/channels/:channelId/messages/:messageId/crosspost', 'bot', rest.crosspost],
  ['POST', '/channels/:channelId/threads', 'bot', rest.forumPost],
  ['POST', '/users/@me/channels', 'bot', rest.createDm],
  ['GET', '/channels/:channelId/messages/:messageId', 'bot', rest.channelMessage],
  ['PATCH', '/channels/:channelId/messages/:messageId', 'bot', rest.channelMessage],
  ['DELETE', '/channels/:channelId/messages/:messageId', 'bot', rest.channelMessage],
  ['POST', '/interactions/:interactionId/:token/callback', 'callback', interactionCallback],
  ['POST', '/webhooks/:applicationId/:token', 'webhook', webhookExecute],
  ['GET', '/webhooks/:applicationId/:token/messages/:messageId', 'webhook', webhookMessage],
  ['PATCH', '/webhooks/:applicationId/:token/messages/:messageId', 'webhook', webhookMessage],
  ['DELETE', '/webhooks/:applicationId/:token/messages/:messageId', 'webhook', webhookMessage],
];

const routes: Route[] = table.map(([method, template, kind, handler]) => ({
  method,
  template,
  kind,
  handler,
  segments: template.split('/').slice(1),
}));

const routesByHead = new Map<string, Route[]>();
for (const r of routes) {
  const head = r.segments[0] ?? '';
  routesByHead.set(head, [...(routesByHead.get(head) ?? []), r]);
}

function match(segments: string[], route: Route): Record<string, string> | undefined {
  if (segments.length !== route.segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const want = route.segments[i] ?? '';
    const got = segments[i] ?? '';
    if (want.startsWith(':')) params[want.slice(1)] = got;
    else if (want !== got) return undefined;
  }
  return params;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

interface Parsed {
  body: Record<string, unknown>;
  list: unknown[] | undefined;
  files: UploadedFile[];
}

async function parseBody(raw: Buffer, contentType: string): Promise<Parsed | undefined> {
  if (raw.length === 0) return { body: {}, list: undefined, files: [] };
  if (contentType.startsWith('multipart/form-data')) {
    const form = await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: raw,
    }).formData();
    const files: UploadedFile[] = [];
    let body: Record<string, unknown> = {};
    for (const [key, value] of form.entries()) {
      if (typeof value === 'string') {
        if (key === 'payload_json') body = JSON.parse(value) as Record<string, unknown>;
        else body[key] = value;
      } else {
        files.push({
          key,
          filename: value.name,
          contentType: value.type,
          data: Buffer.from(await value.arrayBuffer()),
        });
      }
    }
    return { body, list: undefined, files };
  }
  const parsed: unknown = JSON.parse(raw.toString('utf8'));
  if (Array.isArray(parsed)) return { body: {}, list: parsed, files: [] };
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  return { body: parsed as Record<string, unknown>, list: undefined, files: [] };
}

/** Buckets as Discord scopes them: message creation per channel, everything else per route and major id. */
function bucketFor(
  state: FakeState,
  route: Route,
  params: Record<string, string>,
): {
  bucket?: string;
  major?: string;
  spec?: BucketSpec;
} {
  if (route.kind === 'callback') return {};
  const major =
    params['channelId'] ??
    (route.kind === 'webhook' ? `${params['applicationId']}/${params['token']}` : undefined) ??
    params['guildId'];
  const spec =
    route.template === '/channels/:channelId/messages' && route.method === 'POST'
      ? state.channelBucket
      : state.routeBucket;
  const result: { bucket?: string; major?: string; spec?: BucketSpec } = {
    bucket: `${route.method} ${route.template}`,
    spec,
  };
  if (major !== undefined) result.major = major;
  return result;
}

function send(res: ServerResponse, reply: Reply, headers: Record<string, string>): void {
  if (reply.json === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.json);
  res.writeHead(reply.status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function serveAttachment(state: FakeState, segments: string[], res: ServerResponse): void {
  const message = [...state.messages.byId.values()].find((m) => m.attachments.some((a) => a.id === segments[2]));
  const file = message?.attachments.find((a) => a.id === segments[2]);
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': file.content_type ?? 'application/octet-stream', 'Content-Length': file.size });
  res.end(file.data);
}

async function route(
  state: FakeState,
  req: IncomingMessage,
  raw: Buffer,
  at: number,
  res: ServerResponse,
): Promise<{ reply: Reply; headers: Record<string, string>; template: string; path: string }> {
  // Split by hand: this runs for every one of the benchmark's thousands of requests.
  const rawUrl = req.url ?? '/';
  const queryAt = rawUrl.indexOf('?');
  const pathname = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? '' : rawUrl.slice(queryAt + 1));
  const method = req.method ?? 'GET';
  const prefix = '/api/v10/';
  const notFound = { reply: error(404, 0, '404: Not Found'), headers: {}, template: 'unknown', path: pathname };
  if (!pathname.startsWith(prefix)) return notFound;
  let segments = pathname.slice(prefix.length).split('/');
  if (pathname.includes('%')) {
    try {
      segments = segments.map(decodeURIComponent);
    } catch {
      return notFound;
    }
  }
  const path = `/${segments.join('/')}`;
  let found: { route: Route; params: Record<string, string> } | undefined;
  let pathMatched = false;
  for (const candidate of routesByHead.get(segments[0] ?? '') ?? []) {
    const params = match(segments, candidate);
    if (!params) continue;
    pathMatched = true;
    if (candidate.method === method) {
      found = { route: candidate, params };
      break;
    }
  }
  if (!found) {
    const reply = pathMatched ? error(405, 0, '405: Method Not Allowed') : error(404, 0, '404: Not Found');
    return { reply, headers: {}, template: 'unknown', path };
  }
  const { route: hit, params } = found;
  const base = { template: hit.template, path };
  if (hit.kind === 'bot' && req.headers.authorization !== `Bot ${state.token}`) {
    return { ...base, reply: error(401, 0, '401: Unauthorized'), headers: {} };
  }
  const decision = state.limiter.check(
    { method, path, route: hit.template, countsGlobal: hit.kind !== 'callback', ...bucketFor(state, hit, params) },
    at,
  );
  if (!decision.ok) return { ...base, reply: { status: 429, json: decision.body }, headers: decision.headers };
  const channelId = params['channelId'];
  const hold = channelId === undefined ? undefined : state.holds.get(channelId);
  // A client that gave up on a held request (its timeout, an abort) never had it handled: the
  // stalled hop in front of Discord dropped it (a `499`, as proxies log it).
  if (hold && (await held(hold, res)) === 'gone') return { ...base, reply: { status: CLIENT_GONE }, headers: {} };
  const failure = channelId === undefined ? undefined : state.failures.get(channelId);
  if (channelId !== undefined && failure) {
    if (failure.times !== undefined && --failure.times <= 0) state.failures.delete(channelId);
    const message = failure.message ?? defaultMessage(failure.status, failure.code);
    return { ...base, reply: error(failure.status, failure.code ?? 0, message), headers: decision.headers };
  }
  let parsed: Parsed | undefined;
  try {
    parsed = await parseBody(raw, req.headers['content-type'] ?? '');
  } catch {
    parsed = undefined;
  }
  if (!parsed)
    return { ...base, reply: error(400, 50109, 'The request body contains invalid JSON.'), headers: decision.headers };
  const ctx: Ctx = { state, method, path, params, query, ...parsed, now: at };
  const reply = await hit.handler(ctx);
  return { ...base, reply, headers: { ...decision.headers, ...reply.headers } };
}

/** Logged for a held request whose client went away before it was handled (nginx's "client closed request"). */
const CLIENT_GONE = 499;

/** Waits out a channel's hold: until it ends or is released, or the client goes away. */
async function held(hold: ChannelHold, res: ServerResponse): Promise<'go' | 'gone'> {
  if (Date.now() >= hold.until) return 'go';
  hold.waiting++;
  let timer: NodeJS.Timeout | undefined;
  let onClose: (() => void) | undefined;
  try {
    return await Promise.race([
      hold.released.then(() => 'go' as const),
      new Promise<'go'>((resolve) => {
        timer = setTimeout(() => resolve('go'), hold.until - Date.now());
      }),
      new Promise<'gone'>((resolve) => {
        onClose = () => resolve('gone');
        res.once('close', onClose);
      }),
    ]);
  } finally {
    hold.waiting--;
    clearTimeout(timer);
    if (onClose) res.off('close', onClose);
  }
}

function defaultMessage(status: number, code: number | undefined): string {
  const known: Record<number, string> = {
    10003: 'Unknown Channel',
    50001: 'Missing Access',
    50013: 'Missing Permissions',
  };
  if (code !== undefined && known[code]) return known[code];
  return `${status}: ${status >= 500 ? 'Internal Server Error' : 'Error'}`;
}

export function createHandler(state: FakeState) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const at = Date.now();
    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch {
      return; // the client went away mid-request; nothing to answer
    }
    const url = req.url ?? '/';
    if (url.startsWith('/attachments/')) {
      serveAttachment(state, url.split('?')[0]?.split('/').slice(1) ?? [], res);
      return;
    }
    let result: Awaited<ReturnType<typeof route>>;
    try {
      result = await route(state, req, raw, at, res);
    } catch (err) {
      // A bug in the fake must not look like a Discord answer the bot could be blamed for.
      console.error('discord fake: handler crashed', err);
      result = { reply: error(500, 0, '500: fake crashed'), headers: {}, template: 'crash', path: url };
    }
    state.requests.push({
      method: req.method ?? 'GET',
      path: result.path,
      route: result.template,
      status: result.reply.status,
      at,
    });
    // Not a wait: a slow Discord is the scenario a test asked for (responseDelayMs).
    if (state.responseDelayMs > 0) await sleep(state.responseDelayMs);
    if (!res.destroyed) send(res, result.reply, result.headers);
  };
}
