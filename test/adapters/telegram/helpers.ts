/**
 * The real bot on Telegram's side: the Bot API fake, the real grammY adapter,
 * and the real app (sandbox upstream, client, memory store, commands).
 * Time on the fake runs 100x faster; the adapter's pacing is told the same.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import {
  createTelegramAdapter,
  type PacingOptions,
  type TelegramAdapter,
  type WebhookOptions,
} from '../../../src/adapters/telegram/index.ts';
import { createApp, type App } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Dispatcher } from '../../../src/core/dispatch.ts';
import { createLogger, silentLogger, type Logger } from '../../../src/log.ts';
import type { Sandbox } from '../../../src/sandbox/server.ts';
import { PATIENCE_MS } from '../../helpers/wait.ts';
import {
  startTelegramFake,
  type FakeChat,
  type FakeUser,
  type SentMessage,
  type TelegramFake,
  type TelegramFakeOptions,
} from '../../fakes/telegram/index.ts';

/** Long enough for the config's token rule; the part before ':' is the bot id. */
export const TOKEN = '5550001234:AAfake-token-for-adapter-tests_0123';

export interface RigOptions {
  readonly fake?: TelegramFakeOptions;
  /** Upstream budget per command. */
  readonly budgetMs?: number;
  readonly pacing?: PacingOptions;
  readonly webhook?: WebhookOptions;
  /** Builds the dispatcher from the app (a registry with test commands). */
  readonly dispatcher?: (app: App) => Dispatcher;
  /** Commands per sender per window; default: practically unlimited. */
  readonly userLimit?: { readonly count: number; readonly windowMs: number };
  /** Leave the adapter unstarted. */
  readonly start?: boolean;
  /** Automatic cards per chat per minute (default the app's). */
  readonly autoCardsPerMinute?: number;
  /** The clock of the command limit and the lookup budget (cost tests move it); default the wall clock. */
  readonly clock?: () => number;
  /** More configuration (OWNER_IDS, quotas). */
  readonly env?: Readonly<Record<string, string>>;
  /** The clock of the sandbox's market caps (follow-up tests move it with the watcher's). */
  readonly marketClock?: () => number;
  /** The app (watcher, delivery) logs into `logs` too; default: only the adapter does. */
  readonly appLogs?: boolean;
}

export interface Rig {
  readonly fake: TelegramFake;
  readonly app: App;
  readonly sb: Sandbox;
  readonly adapter: TelegramAdapter;
  readonly log: Logger;
  /** Every log line the adapter wrote (unscrubbed: the adapter must keep the token out itself). */
  readonly logs: string[];
  /** A user writes `text` in `chat`; resolves with the bot's next new message there. */
  ask(chat: FakeChat, text: string, from?: FakeUser): Promise<SentMessage>;
}

export async function rig(t: TestContext, o: RigOptions = {}): Promise<Rig> {
  const fake = await startTelegramFake({ token: TOKEN, timeScale: 0.01, ...o.fake });
  const logs: string[] = [];
  const log = createLogger({ level: 'debug', secrets: [], destination: { write: (line: string) => logs.push(line) } });
  const app = await createApp(
    loadConfig({ TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot, STORE_URL: 'memory:', ...o.env }),
    o.appLogs ? log : silentLogger(),
    {
      sandboxLiveRate: 0,
      ...(o.marketClock ? { sandboxMarket: { clock: o.marketClock } } : {}),
      dispatcher: {
        userLimit: o.userLimit ?? { count: 10_000, windowMs: 1_000 },
        // A test that sets the command limit gets the panel's real one too (settings-pace.test.ts).
        ...(o.userLimit ? {} : { panelLimit: { count: 10_000, windowMs: 1_000 } }),
        ...(o.budgetMs ? { budgetMs: o.budgetMs } : {}),
        ...(o.clock ? { now: o.clock } : {}),
      },
      autoCards: {
        ...(o.autoCardsPerMinute ? { perMinute: o.autoCardsPerMinute } : {}),
        ...(o.clock ? { now: o.clock } : {}),
      },
    },
  );
  const adapter = createTelegramAdapter({
    token: fake.token,
    apiRoot: fake.apiRoot,
    dispatcher: o.dispatcher ? o.dispatcher(app) : app.dispatcher,
    store: app.store,
    autoCards: app.autoCards,
    lookups: app.lookups,
    api: app.api,
    log,
    pacing: { timeScale: fake.timeScale, ...o.pacing },
    ...(o.webhook ? { webhook: o.webhook } : {}),
  });
  // One hook, in this order: the bot stops before the fake goes (grammY would retry for seconds).
  t.after(async () => {
    await adapter.stop();
    await app.close();
    await fake.close();
    // Whatever the test did, the bot never sent inside a flood window and never broke the fake.
    assert.deepEqual(fake.violations, [], 'sends inside a 429 window');
    assert.deepEqual(fake.internalErrors, []);
  });
  if (o.start !== false) await adapter.start();
  return {
    fake,
    app,
    sb: app.sandbox!,
    adapter,
    log,
    logs,
    ask(chat, text, from) {
      fake.sendText({ chat, text, ...(from ? { from } : {}) });
      return fake.waitForMessage(chat.id, undefined, PATIENCE_MS);
    },
  };
}

/**
 * A barrier in `chat`: /help, which the bot answers after every update sent to
 * that chat before it (a chat's updates are handled in order). Resolves with its answer.
 */
export async function barrier(r: Rig, chat: FakeChat, from?: FakeUser): Promise<SentMessage> {
  const last = r.fake.messages(chat.id).at(-1)?.message_id ?? 0;
  r.fake.sendText({ chat, text: '/help', ...(from ? { from } : {}) });
  return r.fake.waitForMessage(chat.id, (m) => m.message_id > last && /\/token/.test(m.text ?? ''), PATIENCE_MS);
}

export const privateChat = (id: number): FakeChat => ({ id, type: 'private' });
export const group = (id: number, title = 'Degens'): FakeChat => ({ id, type: 'group', title });

/** Callback data of the button whose label starts with `label`. */
export function button(m: SentMessage, label: string): string {
  const b = (m.reply_markup?.inline_keyboard ?? []).flat().find((x) => x.text.startsWith(label));
  if (!b?.callback_data)
    throw new Error(
      `no '${label}' button; buttons: ${(m.reply_markup?.inline_keyboard ?? [])
        .flat()
        .map((x) => x.text)
        .join(', ')}`,
    );
  return b.callback_data;
}

/** The shared wait (test/helpers/wait.ts) under the name these tests use. */
export { until as eventually } from '../../helpers/wait.ts';
