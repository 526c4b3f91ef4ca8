/**
 * The web pages' part of the configuration (`WEB_URL`, `WEB_HOST`, `WEB_PORT`):
 * whether the bot serves its public community pages, where it listens and the
 * public address links and previews are built from. Apart from config.ts so the
 * rule "off in production until WEB_URL is set" sits beside its variables.
 */
import { z } from 'zod';
import { DEFAULT_HOST, host, optionalString, port } from './fields.ts';

/** Where the pages listen unless WEB_PORT says: beside the usual ops port (HTTP_PORT has no default). */
export const DEFAULT_WEB_PORT = 8080;

/** The public base URL: http or https, no query or fragment (paths are appended to it). */
const webUrl = optionalString.pipe(
  z
    .string()
    .refine(
      (s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol),
      'must be an http(s) URL such as https://kolradar.example.com',
    )
    .refine(
      (s) => !URL.canParse(s) || (new URL(s).search === '' && new URL(s).hash === ''),
      'must have no ?query or #fragment',
    )
    .transform((s) => s.replace(/\/+$/, ''))
    .optional(),
);

export const WebEnv = z.object({
  WEB_URL: webUrl,
  WEB_HOST: host,
  WEB_PORT: port(0),
});

export interface WebConfig {
  /** The public base URL (WEB_URL); undefined on the console, where the local address is the public one. */
  readonly url: string | undefined;
  readonly host: string;
  /** 0 asks the OS for a free port. */
  readonly port: number;
  /** Console mode: a taken default port falls back to a free one (a newcomer's `npm start` must not fail on it). */
  readonly fallbackPort: boolean;
}

/**
 * On a chat platform the pages are public: off until the operator names the address they are
 * reached at (WEB_URL), which every link and preview tag is built from. On the console (no
 * platform) they are on at a local port, so a newcomer sees the demo community's page.
 */
export function webConfig(e: z.infer<typeof WebEnv>, onPlatform: boolean): WebConfig | undefined {
  if (onPlatform && !e.WEB_URL) return undefined;
  return {
    url: e.WEB_URL,
    host: e.WEB_HOST ?? DEFAULT_HOST,
    port: e.WEB_PORT ?? DEFAULT_WEB_PORT,
    fallbackPort: !onPlatform && e.WEB_PORT === undefined,
  };
}

/**
 * WEB_PORT on a platform without WEB_URL would silently serve nothing: said at start instead. WEB_HOST alone
 * is no such sign (a container sets it once for whenever the pages are turned on).
 */
export function webProblems(env: Readonly<Record<string, string | undefined>>, onPlatform: boolean): string[] {
  const present = (k: string) => (env[k] ?? '').trim() !== '';
  if (!onPlatform || present('WEB_URL')) return [];
  return ['WEB_PORT', 'WEB_HOST']
    .filter(present)
    .map((k) => `WEB_URL is required when ${k} is set (the pages' public address)`);
}
