// A protocol-faithful fake of the Telegram Bot API on 127.0.0.1, for driving the
// real grammY bot in tests and benchmarks. Start it, point grammY at it:
//   const fake = await startTelegramFake();
//   const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
// and always `await fake.close()` at the end.
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { TelegramFake } from './driver.ts';
import { RateLimiter } from './rate-limit.ts';
import type { KeepAliveOptions } from './connections.ts';
import { createFakeServer, type ServerDeps } from './server.ts';
import { FakeState } from './state.ts';
import type { Limits, RequestLogEntry } from './types.ts';
import { UpdateQueue } from './updates.ts';

export interface TelegramFakeOptions {
  /** Bot token; its part before ':' is the bot id. A random one is made if omitted. */
  token?: string;
  botUsername?: string;
  /** Flood limits (defaults: 30/s overall, 1/s per private chat, 20/min per group); false turns them off. */
  limits?: Limits | false;
  /**
   * Real milliseconds per flood-control millisecond: 0.01 makes a "retry after 1" window
   * last 10 ms and a 1/s limit a 1/10 ms one. retry_after in answers stays whole seconds,
   * so a client under test must scale its waits by the same factor.
   */
  timeScale?: number;
  /** Refuse sends to chats no user wrote from and addChat() did not declare, as Telegram does (default true). */
  knownChatsOnly?: boolean;
  /** Privacy mode (default true, as BotFather leaves it): ordinary group messages are not delivered. */
  privacyMode?: boolean;
  /** Inline mode enabled with BotFather /setinline (default false). */
  inlineMode?: boolean;
  /**
   * Paid broadcasts: the bot's Stars balance (default 0: a paid send is refused) and whether
   * Telegram finds it eligible (default true). See rate-limit.ts.
   */
  paidBroadcast?: { stars?: number; eligible?: boolean };
  /** How idle kept-alive connections end (connections.ts); default: as Node's server, after 5 s, announced. */
  keepAlive?: KeepAliveOptions;
}

export async function startTelegramFake(opts: TelegramFakeOptions = {}): Promise<TelegramFake> {
  const token =
    opts.token ??
    `${100000000 + Math.floor(Math.random() * 899999999)}:AAfake${Math.random().toString(36).slice(2, 14)}`;
  const botId = Number(token.split(':')[0]);
  if (!Number.isSafeInteger(botId) || botId <= 0) throw new Error('token must look like "<bot id>:<secret>"');
  const timeScale = opts.timeScale ?? 1;
  if (!(timeScale > 0)) throw new Error('timeScale must be > 0');
  const t0 = performance.now();
  let skipped = 0;
  const now = (): number => performance.now() - t0 + skipped;
  const advanceClock = (ms: number): void => {
    skipped += ms;
  };
  const state = new FakeState({
    id: botId,
    is_bot: true,
    first_name: 'Kolradar Test',
    username: opts.botUsername ?? 'kolradar_test_bot',
  });
  state.privacyMode = opts.privacyMode ?? true;
  state.inlineMode = opts.inlineMode ?? false;
  const updates = new UpdateQueue();
  const limiter = new RateLimiter(opts.limits, timeScale, now);
  limiter.tenths = Math.round((opts.paidBroadcast?.stars ?? 0) * 10);
  limiter.eligible = opts.paidBroadcast?.eligible ?? true;
  const log: RequestLogEntry[] = [];
  const internalErrors: unknown[] = [];
  const deps: ServerDeps = {
    token,
    state,
    updates,
    limiter,
    now,
    knownChatsOnly: opts.knownChatsOnly ?? true,
    log,
    internalErrors,
  };
  const server = createFakeServer(deps, opts.keepAlive);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return new TelegramFake({
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    timeScale,
    server,
    state,
    updates,
    limiter,
    now,
    advanceClock,
    log,
    internalErrors,
    connections: deps.connections!,
  });
}

export {
  CHANNEL_BOT,
  GROUP_ANONYMOUS_BOT,
  TelegramFake,
  type FakeChat,
  type FakeUser,
  type SenderChannel,
} from './driver.ts';
export { DEFAULT_LIMITS, PAID_REFUSALS } from './rate-limit.ts';
export { parseHtml } from './html.ts';
export type {
  BotCommand,
  CallbackAnswer,
  FailureKind,
  Limits,
  MemberStatus,
  MessageEntity,
  MessageVersion,
  PhotoInfo,
  RequestLogEntry,
  SentMessage,
  Update,
  Violation,
} from './types.ts';
export { tinyPng } from './png.ts';
export type { InlineAnswer, InlineResult } from './inline.ts';
export type { KeepAliveOptions } from './connections.ts';
