/**
 * The web adapter: the routes of the public pages, on Hono.
 *
 * Hono rather than Fastify: its request handling is the web platform's own
 * (Request in, Response out), so the site runs on @hono/node-server behind the
 * operator's guarded node:http server (ops/limits.ts) with nothing in between,
 * it carries an escaping html template and the security-headers middleware we
 * need, and it has no plugin system or schema compiler to start: a few
 * milliseconds of the bot's start-up rather than Fastify's tens.
 *
 * Every answer is built from the store and the bot's caches (context.ts): no
 * route sends an upstream request. A page is looked up by slug on every request
 * (one store read), so /web off answers 404 at once on every instance.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Hono, type Context } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { pickLocale, translator, type Locale } from '../i18n/index.ts';
import { callCardPicture } from '../pictures/cards.ts';
import { callCardInput } from '../views/cards/memberCalls.ts';
import { PageCache } from './cache.ts';
import { createRunner, type WebDeps } from './context.ts';
import { documentOf, h } from './html.ts';
import {
  boardPage,
  callPage,
  communityCall,
  memberPage,
  PERIODS,
  RANKINGS,
  type Built,
  type Community,
  type Period,
  type Ranking,
} from './pages.ts';

/** How long a built page is served as it is ("as of" on the page). */
export const PAGE_TTL_MS = 15_000;
/** Built pages and card pictures kept at once: memory stays bounded whatever is crawled. */
export const PAGE_CACHE_ENTRIES = 256;
/** How long a browser or unfurler may keep a call card before asking again (with its ETag). */
export const CARD_MAX_AGE_S = 300;

const STATIC: Readonly<Record<string, { text: string; type: string }>> = {
  'site.css': {
    text: readFileSync(new URL('./static/site.css', import.meta.url), 'utf8'),
    type: 'text/css; charset=utf-8',
  },
  'app.js': {
    text: readFileSync(new URL('./static/app.js', import.meta.url), 'utf8'),
    type: 'text/javascript; charset=utf-8',
  },
};
const etagOf = (body: string | Uint8Array) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
const STATIC_FILES = Object.fromEntries(
  Object.entries(STATIC).map(([k, v]) => [k, { body: new Blob([v.text]), type: v.type, etag: etagOf(v.text) }]),
);

export interface Site {
  readonly fetch: (req: Request) => Response | Promise<Response>;
  readonly cache: PageCache;
}

/** The visitor's language from Accept-Language, in the order of their preference. */
function acceptLanguage(header: string | undefined): Locale {
  const tags = (header ?? '')
    .split(',')
    .slice(0, 20)
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0 };
    })
    .filter((x) => x.tag && x.q > 0)
    .sort((a, b) => b.q - a.q);
  return pickLocale(...tags.map((x) => x.tag));
}

export function createSite(d: WebDeps & { readonly baseUrl: () => string }): Site {
  const runner = createRunner(d);
  const cache = new PageCache({ max: PAGE_CACHE_ENTRIES, ttlMs: PAGE_TTL_MS });
  const app = new Hono();

  app.use(
    secureHeaders({
      // Our own script and stylesheet files only: no inline script or style, no other origin.
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
      referrerPolicy: 'strict-origin-when-cross-origin',
      // Unfurlers and chat clients fetch the card from elsewhere.
      crossOriginResourcePolicy: 'cross-origin',
      // HTTPS and its HSTS are the proxy's (deploy/); the console's local http page must not claim them.
      strictTransportSecurity: false,
      xFrameOptions: 'DENY',
    }),
  );

  /** The community a slug names, in its language (the chat's, else the visitor's); undefined: 404. */
  async function community(c: Context, slug: string): Promise<Community | undefined> {
    if (slug.length > 64) return undefined;
    const page = await d.store.web.bySlug(slug);
    if (!page) {
      cache.dropCommunity(slug); // turned off (here or on another instance): its pages leave the cache
      return undefined;
    }
    const locale =
      (await d.store.languages.get(page.platform, page.chatId)) ?? acceptLanguage(c.req.header('accept-language'));
    const path = `/c/${page.slug}`;
    return { page, locale, t: translator(locale), home: `${d.baseUrl()}${path}`, path };
  }

  /** The "not found" page per language: built once each (a crawler's made-up URLs share it). */
  const notFoundDocs = new Map<Locale, string>();
  function notFound(c: Context): Response {
    const locale = acceptLanguage(c.req.header('accept-language'));
    let doc = notFoundDocs.get(locale);
    if (doc === undefined) {
      const t = translator(locale);
      doc = documentOf({
        locale,
        t,
        head: { title: t('web.notFound'), description: t('web.notFoundText'), url: d.baseUrl() },
        body: h`<h1>${t('web.notFound')}</h1><p>${t('web.notFoundText')}</p>`,
      });
      notFoundDocs.set(locale, doc);
    }
    return c.html(doc, 404, { 'cache-control': 'no-store' });
  }

  /** A cached answer, or 304 when the client holds it already. HTML is revalidated every time (no-cache). */
  function send(c: Context, hit: { body: Blob; type: string; etag: string }, cacheControl: string): Response {
    const headers = { etag: hit.etag, 'cache-control': cacheControl, 'content-type': hit.type };
    if (
      c.req
        .header('if-none-match')
        ?.split(',')
        .some((x) => x.trim() === hit.etag)
    )
      return new Response(null, { status: 304, headers });
    return new Response(c.req.method === 'HEAD' ? null : hit.body, { status: 200, headers });
  }

  /** Serves the page under `key` from the cache, else builds it (undefined from the builder: 404). */
  async function page(
    c: Context,
    com: Community,
    key: string,
    build: () => Promise<Built | undefined>,
  ): Promise<Response> {
    const full = `${com.page.slug}\n${key}\n${com.locale}`;
    const now = d.now();
    let hit = cache.get(full, now);
    if (!hit) {
      const built = await build();
      if (!built) return notFound(c);
      const asOf = com.t('web.asOf', { time: new Date(now).toISOString().slice(0, 16).replace('T', ' ') });
      const body = documentOf({
        locale: com.locale,
        t: com.t,
        head: built.head,
        body: built.body,
        asOf,
        ...(built.home ? { home: built.home } : {}),
      });
      hit = { body: new Blob([body]), type: 'text/html; charset=utf-8', etag: etagOf(body), builtAt: now };
      cache.set(full, hit);
    }
    return send(c, hit, 'no-cache');
  }

  const choice = <V extends string>(values: readonly V[], v: string | undefined, fallback: V): V =>
    values.includes(v as V) ? (v as V) : fallback;

  app.get('/static/:file', (c) => {
    const file = c.req.param('file');
    const s = Object.hasOwn(STATIC_FILES, file) ? STATIC_FILES[file]! : undefined;
    if (!s) return notFound(c);
    return send(c, s, 'public, max-age=3600');
  });

  app.get('/c/:slug', async (c) => {
    const com = await community(c, c.req.param('slug'));
    if (!com) return notFound(c);
    const period: Period = choice(PERIODS, c.req.query('period'), '7d');
    const by: Ranking = choice(RANKINGS, c.req.query('by'), 'call');
    return page(c, com, `board ${period} ${by}`, () => boardPage(runner, d, com, { period, by }));
  });

  app.get('/c/:slug/call/:id', async (c) => {
    const com = await community(c, c.req.param('slug'));
    const id = c.req.param('id');
    if (!com || id.length > 200) return notFound(c);
    return page(c, com, `call ${id}`, async () => {
      const x = await communityCall(d, com.page, id);
      return x ? callPage(d, com, x) : undefined;
    });
  });

  app.get('/c/:slug/call/:id/card.png', async (c) => {
    const com = await community(c, c.req.param('slug'));
    const id = c.req.param('id');
    if (!com || id.length > 200) return notFound(c);
    const key = `${com.page.slug}\ncard ${id}\n${com.locale}`;
    const now = d.now();
    let hit = cache.get(key, now);
    if (!hit) {
      const x = await communityCall(d, com.page, id);
      if (!x) return notFound(c);
      // The card's figures decide its ETag: a client holding this very card gets 304 without a drawing.
      const input = callCardInput(x, com.t, now);
      const etag = etagOf(JSON.stringify(input));
      if (
        c.req
          .header('if-none-match')
          ?.split(',')
          .some((v) => v.trim() === etag)
      )
        return send(c, { body: new Blob([]), type: 'image/png', etag }, `public, max-age=${CARD_MAX_AGE_S}`);
      const drawn = await callCardPicture(runner.pictureCtx(com.t), x, com.t, now);
      if (!drawn.picture) return c.text('', 503, { 'retry-after': '5', 'cache-control': 'no-store' });
      hit = {
        body: new Blob([drawn.picture.png as Uint8Array<ArrayBuffer>], { type: 'image/png' }),
        type: 'image/png',
        etag,
        builtAt: now,
      };
      cache.set(key, hit);
    }
    return send(c, hit, `public, max-age=${CARD_MAX_AGE_S}`);
  });

  app.get('/c/:slug/member/:name', async (c) => {
    const com = await community(c, c.req.param('slug'));
    const name = c.req.param('name');
    if (!com || name.length > 64) return notFound(c);
    return page(c, com, `member ${name.replace(/^@/, '').toLowerCase()}`, () => memberPage(runner, d, com, name));
  });

  app.notFound((c) => notFound(c));
  app.onError((err, c) => {
    d.log.error({ err, path: new URL(c.req.url).pathname }, 'web page failed');
    const t = translator(acceptLanguage(c.req.header('accept-language')));
    return c.text(t('errors.failed'), 503, { 'cache-control': 'no-store', 'retry-after': '30' });
  });

  return { fetch: app.fetch, cache };
}
