/**
 * Call tracking below the chat libraries: the real app (sandbox with moving
 * market caps, client, store, watcher, delivery, follow-ups) on a clock the
 * test moves, with a recording Sender standing in for a platform. The
 * adapters' own tests (test/adapters/calls.test.ts) drive discord.js and grammY.
 */
import type { TestContext } from 'node:test';
import type { Sender, SendResult } from '../../src/alerts/delivery.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import type { View } from '../../src/domain/view.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import { openSubscription } from '../helpers/subscriptions.ts';
import { until } from '../helpers/wait.ts';

export interface Edit {
  readonly chatId: string;
  readonly messageId: string;
  readonly view: View;
}

/** The visible text of a view, for matching what a reader sees. */
export function textOf(view: View): string {
  const flat = (x: unknown): string =>
    typeof x === 'string'
      ? x
      : Array.isArray(x)
        ? x.map(flat).join('')
        : x && typeof x === 'object'
          ? Object.values(x).map(flat).join('')
          : '';
  return view.kind === 'card'
    ? `${view.title}\n${flat(view.description)}`
    : view.kind === 'text'
      ? flat(view.text)
      : view.kind;
}

/** One clock for the follow-ups and the sandbox's market, moved by the test. */
export function testClock() {
  let at = Date.now();
  return {
    now: () => at,
    advance: (ms: number) => {
      at += ms;
    },
  };
}

export async function callsHarness(
  t: TestContext,
  o: {
    storeUrl?: string;
    destinations?: number;
    perMinute?: number;
    followups?: number[];
    sandbox?: Sandbox;
    clock?: ReturnType<typeof testClock>;
    subscribe?: boolean;
  } = {},
) {
  const clock = o.clock ?? testClock();
  const now = clock.now;
  const app = await createApp(
    loadConfig({
      STORE_URL: o.storeUrl ?? 'memory:',
      WATCH_CRON: '0 0 1 1 *',
      FOLLOWUP_REQUESTS_PER_MINUTE: String(o.perMinute ?? 100),
      ...(o.sandbox ? { KOL_API_BASE_URL: o.sandbox.url, KOL_API_KEY: o.sandbox.apiKey } : {}),
    }),
    silentLogger(),
    {
      sandboxLiveRate: 0,
      sandboxMarket: { clock: now },
      dispatcher: { now, userLimit: { count: 10_000, windowMs: 1000 }, panelLimit: { count: 10_000, windowMs: 1000 } },
    },
  );
  const sent: { chatId: string; threadId?: string; view: View; messageId: string }[] = [];
  const edits: Edit[] = [];
  /** Per chat: what an edit answers instead of success (a deleted message). */
  const editAnswer = new Map<string, () => SendResult>();
  const sender: Sender = {
    platform: 'console',
    async send(chatId, view, _nonce, threadId) {
      const messageId = String(sent.length + 1);
      sent.push({ chatId, ...(threadId ? { threadId } : {}), view, messageId });
      return { kind: 'sent', messageId };
    },
    async edit(chatId, messageId, view) {
      const special = editAnswer.get(chatId);
      if (special) return special();
      edits.push({ chatId, messageId, view });
      return { kind: 'sent', messageId };
    },
  };
  const chats = Array.from({ length: o.destinations ?? 3 }, (_, i) => `chat-${i}`);
  if (o.subscribe !== false)
    for (const c of chats)
      await app.store.subscriptions.put(openSubscription('console', c, o.followups ? { followups: o.followups } : {}));
  const watcher = app.startAlerts([sender], { followupNow: now, marketHedgeMs: false });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= app.close());
  t.after(close);
  const sb = (o.sandbox ?? app.sandbox)!;
  // The first tick takes the head of the feed as its mark.
  await watcher.tick();
  // Delivery runs on its own after a tick; wait for the outbox to empty of what is due (no clock involved).
  const idle = () =>
    until(async () => !(await app.store.outbox.pending()).some((e) => e.notBefore <= now()), 'delivery idle');
  return {
    app,
    sb,
    /** Stops this instance (idempotent): a process that goes away. */
    close,
    sender,
    sent,
    edits,
    editAnswer,
    chats,
    watcher,
    now,
    /** Moves the follow-up clock (and the sandbox market) forward. */
    advance(ms: number) {
      clock.advance(ms);
    },
    /** A tick (feed, then due follow-ups) and delivery until the outbox is idle. */
    async cycle() {
      const r = await watcher.tick();
      await idle();
      return r;
    },
    /** A KOL shills a token with scores any subscription accepts. */
    shill(tokenIndex = 0, kolIndex = 0) {
      const tok = sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol) && x.marketcap > 0)[tokenIndex]!;
      sb.addTweets(1, { token: tok.id, kol: sb.data.kols[kolIndex]!.id, tokenScore: 95, kolScore: 95 });
      return tok;
    },
  };
}
