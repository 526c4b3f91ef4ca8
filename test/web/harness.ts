/**
 * The real bot (createApp: sandbox upstream, memory store, every command) with
 * its community pages served (app/web.ts), driven like the console adapter, and
 * read over HTTP as a visitor would: status, headers, and the page's tables and
 * figures as text (the page's data-col / data-fig marks, entities decoded).
 */
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Caller } from '../../src/core/command.ts';
import type { TableView, View } from '../../src/domain/view.ts';
import { silentLogger } from '../../src/log.ts';
import { serveWeb } from '../../src/app/web.ts';
import type { WebServer } from '../../src/web/server.ts';

export interface WebHarness {
  readonly app: App;
  readonly web: WebServer;
  /** A member of the community's chat (group `chatId`), admin or not. */
  member(id: string, name: string, o?: { admin?: boolean; chatId?: string; handle?: string }): Caller;
  /** Runs a typed line as `who`; the answer the chat would get. */
  send(who: Caller, line: string): Promise<View>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** Upstream requests the sandbox has received so far. */
  upstream(): number;
  /** The clock the commands and pages read; tests move it. */
  clock: { now: number };
}

export async function webHarness(t: TestContext, env: Record<string, string> = {}): Promise<WebHarness> {
  const clock = { now: Date.now() };
  const app = await createApp(loadConfig({ STORE_URL: 'memory:', ...env }), silentLogger(), {
    sandboxLiveRate: 0,
    dispatcher: { userLimit: { count: 10_000, windowMs: 1_000 }, now: () => clock.now },
  });
  const web = await serveWeb({ url: undefined, host: '127.0.0.1', port: 0, fallbackPort: false }, app, silentLogger());
  t.after(async () => {
    await web.close();
    await app.close();
  });
  return {
    app,
    web,
    clock,
    member: (id, name, o = {}) => ({
      platform: 'telegram',
      userId: id,
      chatId: o.chatId ?? '-100200300',
      chatType: 'group',
      chatName: 'Alpha Club',
      member: { id, name, ...(o.handle ? { handle: o.handle } : {}) },
      canManage: async () => o.admin === true,
    }),
    async send(who, line) {
      const view = await app.dispatcher.text(line, who);
      assert.ok(view, `'${line}' was not taken as a command`);
      return view;
    },
    get: (path, headers = {}) => fetch(`${web.url}${path}`, { headers }),
    upstream: () => app.sandbox!.requests.length,
  };
}

/** Text of a view for assertions: a text view's text, else its title. */
export const textOf = (v: View): string =>
  v.kind === 'text' ? String(v.text) : v.kind === 'error' ? v.message : v.kind === 'table' ? v.title : v.title;

export const asTable = (v: View): TableView => {
  assert.equal(v.kind, 'table', `a table, not ${JSON.stringify(v).slice(0, 300)}`);
  return v as TableView;
};

const decode = (s: string) =>
  s
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

/** The rows of the page's table `id`, each as column key -> the text a visitor reads. */
export function tableOf(html: string, id: string): Record<string, string>[] {
  const m = new RegExp(`<table id="${id}"[^>]*>([\\s\\S]*?)</table>`).exec(html);
  assert.ok(m, `the page has a table #${id}`);
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(m[1]!)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    Object.fromEntries(
      [...row[1]!.matchAll(/<t[hd][^>]*data-col="([^"]+)"[^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => [
        c[1]!,
        decode(c[2]!),
      ]),
    ),
  );
}

/** The call page's figures: data-fig -> text. */
export function figuresOf(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/<dd[^>]*data-fig="([^"]+)"[^>]*>([\s\S]*?)<\/dd>/g)].map((m) => [m[1]!, decode(m[2]!)]),
  );
}

/** The page's meta tags: property or name -> content, entities decoded. */
export function metaOf(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((m) => [m[1]!, decode(m[2]!)]),
  );
}
