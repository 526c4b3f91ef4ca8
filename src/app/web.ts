/**
 * The community pages, started beside the chat adapters (bot.ts): the web server
 * on the app's store, client cache, commands and picture pool, and, on the
 * console with the embedded sandbox, the demo community (the console chat's own
 * page, under /c/demo) so a newcomer's `npm start` shows a board at once.
 */
import type { Logger } from 'pino';
import type { App } from '../app.ts';
import type { WebConfig } from '../config/web.ts';
import { boardOf } from '../core/membercalls.ts';
import { DEMO_SLUG } from '../store/web.ts';
import { startWebServer, type WebServer } from '../web/server.ts';

export async function serveWeb(web: WebConfig, app: App, log: Logger): Promise<WebServer> {
  const server = await startWebServer({
    store: app.store,
    api: app.api,
    commands: app.dispatcher.commands,
    log,
    charts: app.charts,
    links: app.config.links,
    now: app.now,
    host: web.host,
    port: web.port,
    ...(web.url ? { url: web.url } : {}),
    fallbackPort: web.fallbackPort,
    onRefused: (reason) => app.metrics.httpRefused.inc({ server: 'web', reason }),
  });
  app.setWebUrl(server.url);
  log.info({ host: web.host, port: server.port, url: server.url }, 'community pages listening');
  return server;
}

/**
 * The console's community page and call board, on: the console is one person trying
 * the bot, and what they paste and subscribe to is what the demo page shows.
 * Returns the page's address.
 */
export async function openDemo(app: App, server: WebServer): Promise<string> {
  const had = await app.store.web.ofChat('console', 'console');
  if (!had) {
    await app.store.web.open('console', 'console', DEMO_SLUG, app.now());
    await app.store.members.setOn(boardOf('console', 'console'), true);
  }
  return `${server.url}/c/${had?.slug ?? DEMO_SLUG}`;
}
