/**
 * The real bot minus the chat platforms: sandbox upstream, typed client, memory
 * store, every command file, and the dispatcher, driven like the console adapter.
 */
import assert from 'node:assert/strict';
import { type CallEvent, createKolClient, type KolClient } from '../../src/api/index.ts';
import type { Caller } from '../../src/core/command.ts';
import { createDispatcher, type Dispatcher } from '../../src/core/dispatch.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { silentLogger } from '../../src/log.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import type { ChartPool } from '../../src/domain/charts.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';
import { cachedCharts } from '../../src/pictures/cache.ts';
import { richText } from '../../src/views/render/common.ts';
import type { Action, CardView, ErrorView, Rich, TableView, TextView, View } from '../../src/domain/view.ts';

export const caller: Caller = {
  platform: 'console',
  userId: 'u1',
  chatId: 'c1',
  chatType: 'private',
  member: { id: 'u1', name: 'u1' },
  canManage: async () => true,
};

export interface Harness {
  readonly sandbox: Sandbox;
  readonly api: KolClient;
  readonly store: Store;
  readonly dispatcher: Dispatcher;
  /** Sends a typed line; fails the test if it is not taken as a command. */
  send(line: string): Promise<View>;
  /** Presses the button labelled `label` (prefix match) on `view`. */
  press(view: View, label: string): Promise<View>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Upstream time budget per command (short in fault tests). */
  readonly budgetMs?: number;
  /** Where pictures are drawn (behind a cache of this harness's own, as in app.ts); default the shared pool. */
  readonly charts?: ChartPool;
  /** The commands' clock (ctx.now); default the wall clock. */
  readonly now?: () => number;
  /** Every upstream call the client makes or answers from its cache. */
  readonly onCall?: (e: CallEvent) => void;
  /** The store (two harnesses on one Redis are two instances); default a memory store of its own. */
  readonly storeUrl?: string;
}

export async function harness(o: HarnessOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ live: false });
  const api = createKolClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
    timeouts: { connectMs: 1_000, headersMs: 1_500, bodyMs: 1_500 },
    ...(o.onCall ? { onCall: o.onCall } : {}),
  });
  const store = await openStore(o.storeUrl ?? 'memory:');
  const commands = await loadCommands();
  const dispatcher = createDispatcher({
    commands,
    api,
    store,
    log: silentLogger(),
    userLimit: { count: 10_000, windowMs: 1_000 },
    panelLimit: { count: 10_000, windowMs: 1_000 },
    budgetMs: o.budgetMs ?? 5_000,
    // As if the community pages were served (app/web.ts sets the real address): /web answers with links.
    webUrl: () => 'http://127.0.0.1:8080',
    charts: cachedCharts(o.charts ?? sharedChartPool(), o.now ? { now: o.now } : {}),
    ...(o.now ? { now: o.now } : {}),
  });
  return {
    sandbox,
    api,
    store,
    dispatcher,
    async send(line) {
      const view = await dispatcher.text(line, caller);
      assert.ok(view, `'${line}' was not taken as a command`);
      return view;
    },
    async press(view, label) {
      const action = (view.actions ?? []).find((a) => a.label.includes(label));
      assert.ok(action?.id, `no '${label}' button; buttons: ${(view.actions ?? []).map((a) => a.label).join(', ')}`);
      return dispatcher.action(action.id, caller);
    },
    async close() {
      await api.close();
      await store.close();
      await sandbox.close();
    },
  };
}

export const plain = (r: Rich | undefined): string => richText(r);

function kindOf<K extends View['kind']>(view: View, kind: K): Extract<View, { kind: K }> {
  assert.equal(view.kind, kind, `expected a ${kind}, got ${view.kind}: ${view.kind === 'error' ? view.message : ''}`);
  return view as Extract<View, { kind: K }>;
}

export const asCard = (v: View): CardView => kindOf(v, 'card');
export const asTable = (v: View): TableView => kindOf(v, 'table');
export const asText = (v: View): TextView => kindOf(v, 'text');
export const asError = (v: View): ErrorView => kindOf(v, 'error');

/** A card field's text by name. */
export function field(card: CardView, name: string): string {
  const f = (card.fields ?? []).find((x) => x.name === name);
  assert.ok(f, `no field '${name}'; fields: ${(card.fields ?? []).map((x) => x.name).join(', ')}`);
  return plain(f.value);
}

/** One table column, top to bottom. */
export function column(table: TableView, key: string): string[] {
  return table.rows.map((r) => {
    const v = r[key];
    assert.ok(v !== undefined, `no column '${key}' in ${JSON.stringify(r)}`);
    return v;
  });
}

export function action(view: View, label: string): Action {
  const a = (view.actions ?? []).find((x) => x.label.includes(label));
  assert.ok(a, `no '${label}' button; buttons: ${(view.actions ?? []).map((x) => x.label).join(', ')}`);
  return a;
}
