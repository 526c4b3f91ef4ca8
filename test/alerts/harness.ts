/**
 * Alerts end to end below the chat libraries: the real sandbox, client, store,
 * commands, watcher and delivery, with a recording Sender standing in for a
 * platform (the adapters' own tests drive discord.js and grammY).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { createKolClient } from '../../src/api/index.ts';
import { createDelivery, type Sender, type SendResult } from '../../src/alerts/delivery.ts';
import { localLease } from '../../src/store/lease.ts';
import { marketNow } from '../../src/alerts/market.ts';
import { createWatcher, type TickResult } from '../../src/alerts/watcher.ts';
import type { Caller } from '../../src/core/command.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { silentLogger } from '../../src/log.ts';
import { startSandbox, type AuthorShape } from '../../src/sandbox/server.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import type { View } from '../../src/domain/view.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';

export interface Sent {
  readonly chatId: string;
  readonly view: View;
  readonly nonce: string;
}

export function caller(chatId: string, admin = true, chatType: Caller['chatType'] = 'group'): Caller {
  return { platform: 'console', userId: `u-${chatId}`, chatId, chatType, canManage: async () => admin };
}

export async function alertHarness(
  t: TestContext,
  opts: {
    storeUrl?: string;
    pageSize?: number;
    maxBacklog?: number;
    budgetMs?: number;
    authors?: AuthorShape;
    now?: () => number;
    /** The watcher's sleep (its pace and back-off waits), for a test that moves its own clock. */
    sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  } = {},
) {
  const dir = opts.storeUrl ? undefined : await mkdtemp(join(tmpdir(), 'kolradar-alerts-'));
  const storeUrl = opts.storeUrl ?? `sqlite:${join(dir!, 'state.sqlite')}`;
  const sb = await startSandbox(opts.authors ? { authors: opts.authors } : {});
  const api = createKolClient({
    baseUrl: sb.url,
    apiKey: sb.apiKey,
    cacheTtlMs: false,
    retry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 200 },
  });
  const log = silentLogger();
  const commands = await loadCommands();
  const sent: Sent[] = [];
  /** Every tick's result, for counting upstream lookups and held-back tweets. */
  const ticks: TickResult[] = [];
  /** Alerts edited in place (more KOLs within the cooldown); `sent` shows their latest version. */
  const edits: { chatId: string; messageId: string; view: View }[] = [];
  const behaviour = new Map<string, () => SendResult>();
  const sender: Sender = {
    platform: 'console',
    async send(chatId, view, nonce) {
      const special = behaviour.get(chatId);
      if (special) return special();
      sent.push({ chatId, view, nonce });
      return { kind: 'sent', messageId: String(sent.length) };
    },
    async edit(chatId, messageId, view) {
      edits.push({ chatId, messageId, view });
      sent[Number(messageId) - 1] = { ...sent[Number(messageId) - 1]!, view };
      return { kind: 'sent', messageId };
    },
  };
  let store: Store = await openStore(storeUrl);
  const build = () => {
    const dispatcher = createDispatcher({
      charts: sharedChartPool(),
      commands,
      api,
      store,
      log,
      userLimit: { count: 10_000, windowMs: 1000 },
    });
    const delivery = createDelivery({
      outbox: store.outbox,
      subscriptions: store.subscriptions,
      senders: [sender],
      log,
      languages: store.languages,
      marketNow: (tokens) => marketNow(api, tokens, { budgetMs: 10_000, log }),
      ...(opts.now ? { now: opts.now } : {}),
    });
    const watcher = createWatcher({
      onTick: (r) => ticks.push(r),
      api,
      subscriptions: store.subscriptions,
      outbox: store.outbox,
      state: store.watch,
      pages: store.pages,
      delivery,
      lease: localLease(),
      log,
      pageSize: opts.pageSize ?? 30,
      maxBacklog: opts.maxBacklog ?? 1000,
      budgetMs: opts.budgetMs ?? 10_000,
      // Upstream requests are counted here: no twin for a market answer slowed by a loaded machine.
      marketHedgeMs: false,
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
    });
    return { dispatcher, delivery, watcher };
  };
  let parts = build();
  t.after(async () => {
    await parts.watcher.stop();
    await store.close();
    await api.close();
    await sb.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    sb,
    api,
    sent,
    ticks,
    edits,
    behaviour,
    get store() {
      return store;
    },
    get dispatcher() {
      return parts.dispatcher;
    },
    /** One watcher tick, then a full drain of the outbox. */
    async cycle() {
      const r = await parts.watcher.tick();
      await parts.delivery.drain();
      return r;
    },
    /** A new process on the same state file. */
    async restart() {
      await parts.watcher.stop();
      await store.close();
      store = await openStore(storeUrl);
      parts = build();
    },
  };
}

/** The token symbol and KOLs an alert names, read from the title the user sees. */
export function titleOf(s: Sent): string {
  return s.view.kind === 'card' ? s.view.title : s.view.kind === 'text' ? String(s.view.text) : s.view.kind;
}
