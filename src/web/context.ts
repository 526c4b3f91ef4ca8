/**
 * What the pages read, and how: the chat commands themselves (/lb, /calls,
 * /stats), run for the community with a context of the web's own, so a page and
 * the chat agree to the digit because they are the same computation.
 *
 * The context's client answers from the bot's cache only (`cache: 'only'`): a
 * figure /calls read lately (the current market caps, cached 15 s) shows; one it
 * has not read keeps the call's last follow-up, as /calls does when the upstream
 * is slow. A visit never sends an upstream request.
 */
import type { Logger } from 'pino';
import type { CallOptions, KolClient } from '../api/client.ts';
import type { Caller, CommandContext, Platform } from '../core/command.ts';
import { toErrorView } from '../core/boundary.ts';
import { createKolMemo } from '../core/kolMemo.ts';
import { validate } from '../core/parse.ts';
import type { Registry } from '../core/registry.ts';
import type { ChartPool } from '../domain/charts.ts';
import type { LinkSet } from '../domain/links.ts';
import type { View } from '../domain/view.ts';
import type { Locale, T } from '../i18n/index.ts';
import type { Store } from '../store/index.ts';
import type { WebPage } from '../store/web.ts';

export interface WebDeps {
  readonly store: Store;
  readonly api: KolClient;
  readonly commands: Registry;
  readonly log: Logger;
  readonly charts: ChartPool;
  readonly links?: LinkSet;
  readonly now: () => number;
}

/** How long a page's figures may take to read from the store; past it the page answers 503. */
export const READ_BUDGET_MS = 2_000;

/** The client, answering from its cache or refusing at once: never a request. */
export function cacheOnly(api: KolClient): KolClient {
  const only =
    <P, R>(m: (p: P, o?: CallOptions) => Promise<R>) =>
    (p: P, o?: CallOptions) =>
      m(p, { ...o, cache: 'only', quiet: true });
  return {
    getTokenMindmap: only(api.getTokenMindmap),
    getTokenAnalytics: only(api.getTokenAnalytics),
    getKolProjects: only(api.getKolProjects),
    getKolTokens: only(api.getKolTokens),
    getKolWinRates: only(api.getKolWinRates),
    getKolScore: only(api.getKolScore),
    getTweetsByToken: only(api.getTweetsByToken),
    getTweets: only(api.getTweets),
    getKolTable: only(api.getKolTable),
    getKolMindmap: only(api.getKolMindmap),
    clearCache: () => {},
    close: async () => {},
  };
}

/** The page's visitor as a command sees them: nobody in particular, in the community's chat, with no rights. */
function visitor(page: WebPage): Caller {
  return {
    platform: page.platform as Platform,
    userId: 'web',
    chatId: page.chatId,
    chatType: 'group',
    canManage: async () => false,
  };
}

export interface Runner {
  /** Runs a chat command for the community, its options as typed; the answer the chat would get. */
  run(name: 'lb' | 'calls' | 'stats', raw: Record<string, unknown>, page: WebPage, locale: Locale, t: T): Promise<View>;
  /** A context to draw a picture with (the call card), pictures on. */
  pictureCtx(t: T): Pick<CommandContext, 'capabilities' | 'log' | 'charts'> & { t: T };
}

export function createRunner(d: WebDeps): Runner {
  const api = cacheOnly(d.api);
  const kolMemo = createKolMemo();
  return {
    async run(name, raw, page, locale, t) {
      const command = d.commands.get(name);
      if (!command) throw new Error(`no /${name} command loaded`);
      const signal = AbortSignal.timeout(READ_BUDGET_MS);
      const ctx: CommandContext = {
        api,
        store: d.store,
        caller: visitor(page),
        locale,
        t,
        capabilities: { pictures: false, buttons: false },
        signal,
        budgetMs: READ_BUDGET_MS,
        commands: d.commands,
        log: d.log,
        now: d.now,
        kolMemo,
        charts: d.charts,
        ...(d.links ? { links: d.links } : {}),
      };
      // As the chat: whatever goes wrong is the command's short answer (the error boundary's), never a stack.
      try {
        return await command.run(validate(command, raw) as never, ctx);
      } catch (err) {
        return toErrorView(err, name, d.log, t).view;
      }
    },
    pictureCtx: (t) => ({ capabilities: { pictures: true, buttons: false }, log: d.log, charts: d.charts, t }),
  };
}
