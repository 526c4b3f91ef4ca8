/**
 * Alerts end to end below the chat libraries: the app as main.ts builds it
 * (createApp: client, store, commands, dispatcher, watcher, delivery, follow-ups
 * and digests), on the real sandbox, with a recording Sender standing in for a
 * platform (the adapters' own tests drive discord.js and grammY). The watcher is
 * not started: each cycle() is one tick and a full drain.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { Sender, SendResult } from '../../src/alerts/delivery.ts';
import type { TickResult, Watcher } from '../../src/alerts/watcher.ts';
import { type App, createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Caller } from '../../src/core/command.ts';
import { silentLogger } from '../../src/log.ts';
import { startSandbox, type AuthorShape } from '../../src/sandbox/server.ts';
import type { View } from '../../src/domain/view.ts';

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
  // Outlives a restart: a new process on the same state reads the same upstream.
  const sb = await startSandbox(opts.authors ? { authors: opts.authors } : {});
  const config = loadConfig({ STORE_URL: storeUrl, KOL_API_BASE_URL: sb.url, KOL_API_KEY: sb.apiKey });
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
  const start = async (): Promise<{ app: App; watcher: Watcher }> => {
    const app = await createApp(config, silentLogger(), {
      // Every upstream request is counted here: none answered from a cache; retries quick.
      api: { cacheTtlMs: false, retry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 200 } },
      dispatcher: { userLimit: { count: 10_000, windowMs: 1000 }, panelLimit: { count: 10_000, windowMs: 1000 } },
    });
    const watcher = app.startAlerts([sender], {
      schedule: false,
      onTick: (r) => ticks.push(r),
      pageSize: opts.pageSize ?? 30,
      maxBacklog: opts.maxBacklog ?? 1000,
      budgetMs: opts.budgetMs ?? 10_000,
      // Upstream requests are counted here: no twin for a market answer slowed by a loaded machine.
      marketHedgeMs: false,
      ...(opts.now ? { now: opts.now, followupNow: opts.now } : {}),
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
    });
    return { app, watcher };
  };
  let running = await start();
  t.after(async () => {
    await running.app.close();
    await sb.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    sb,
    sent,
    ticks,
    edits,
    behaviour,
    get app() {
      return running.app;
    },
    get api() {
      return running.app.api;
    },
    get store() {
      return running.app.store;
    },
    get dispatcher() {
      return running.app.dispatcher;
    },
    /** One watcher tick, then a full drain of the outbox. */
    async cycle() {
      const r = await running.watcher.tick();
      await running.app.delivery!.drain();
      return r;
    },
    /** A new process on the same state file. */
    async restart() {
      await running.app.close();
      running = await start();
    },
  };
}

/** The token symbol and KOLs an alert names, read from the title the user sees. */
export function titleOf(s: Sent): string {
  return s.view.kind === 'card' ? s.view.title : s.view.kind === 'text' ? String(s.view.text) : s.view.kind;
}
