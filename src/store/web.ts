/**
 * Community pages (/web): which chat a public slug names, and the other way.
 * The page is the community's (a chat), never a topic's or a subscription's.
 *
 * Layout in the `web` key space (new in this release; older code never reads it, so
 * existing rows need no migration):
 *   s:<slug>               { platform, chatId, since }: what /c/<slug> shows
 *   c:<platform>:<chatId>  the chat's slug
 * The slug key is written last and removed first: a page is served only while both
 * agree, so a crash between the two writes leaves no page that /web cannot remove.
 */
import { randomBytes } from 'node:crypto';
import type { Kv } from './strict.ts';

export interface WebPage {
  readonly slug: string;
  readonly platform: string;
  readonly chatId: string;
  /** When it was turned on (epoch ms). */
  readonly since: number;
  /** The chat's name as the platform showed it then (member-chosen text: escaped where shown). */
  readonly name?: string;
}

/** Chosen slugs: 3-40 of a-z, 0-9 and inner hyphens (a URL path segment as people type and read it). */
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/;
/** Words a chosen slug may not be: they read as the site's own pages. */
const RESERVED = new Set(['static', 'admin', 'api', 'www', 'settings', 'login', 'healthz', 'metrics', 'demo']);

export const isSlug = (s: string): boolean => SLUG.test(s) && !RESERVED.has(s);

/** An unguessable slug: 80 random bits in base32 (16 characters), so a private community cannot be found by trying. */
export function randomSlug(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

export type OpenOutcome = { readonly page: WebPage } | { readonly taken: true };

export interface WebPages {
  /** The page a slug names, when it is on. */
  bySlug(slug: string): Promise<WebPage | undefined>;
  /** The chat's page, when it is on. */
  ofChat(platform: string, chatId: string): Promise<WebPage | undefined>;
  /**
   * Turns the chat's page on under `slug` (its old slug, if any, stops answering), or says the
   * slug is another community's. `slug` given: the admin's choice; absent: the current one, else a random one.
   */
  open(platform: string, chatId: string, slug: string | undefined, now: number, name?: string): Promise<OpenOutcome>;
  /** Turns the chat's page off; the slug it had, or undefined when it had none. */
  close(platform: string, chatId: string): Promise<string | undefined>;
}

/** The console's own community page (reserved: no admin can choose it). */
export const DEMO_SLUG = 'demo';

export function createWebPages(kv: Kv): WebPages {
  const chatKey = (platform: string, chatId: string) => `c:${platform}:${chatId}`;
  async function bySlug(slug: string): Promise<WebPage | undefined> {
    const v = await kv.get<Omit<WebPage, 'slug'>>(`s:${slug}`);
    if (!v) return undefined;
    // Both halves must agree: a slug left behind by an interrupted change answers nothing.
    const back = await kv.get<string>(chatKey(v.platform, v.chatId));
    return back === slug ? { slug, ...v } : undefined;
  }
  async function ofChat(platform: string, chatId: string): Promise<WebPage | undefined> {
    const slug = await kv.get<string>(chatKey(platform, chatId));
    const page = slug ? await bySlug(slug) : undefined;
    return page && page.platform === platform && page.chatId === chatId ? page : undefined;
  }
  return {
    bySlug,
    ofChat,
    async open(platform, chatId, wanted, now, name) {
      const current = await ofChat(platform, chatId);
      if (current && (wanted === undefined || wanted === current.slug)) return { page: current };
      const slug = wanted ?? randomSlug();
      const holder = await bySlug(slug);
      if (holder && (holder.platform !== platform || holder.chatId !== chatId)) return { taken: true };
      if (current) await kv.delete(`s:${current.slug}`);
      const page = { platform, chatId, since: now, ...(name ? { name: name.slice(0, 100) } : {}) };
      await kv.set(chatKey(platform, chatId), slug);
      await kv.set(`s:${slug}`, page);
      return { page: { slug, ...page } };
    },
    async close(platform, chatId) {
      const slug = await kv.get<string>(chatKey(platform, chatId));
      if (slug === undefined) return undefined;
      await kv.delete(`s:${slug}`);
      await kv.delete(chatKey(platform, chatId));
      return slug;
    },
  };
}
