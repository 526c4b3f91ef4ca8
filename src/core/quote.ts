/**
 * The reply form: `/token` or `/kol` sent with no argument as a reply to a
 * message reads that message. Platform-neutral: adapters pass the quoted text.
 */
import { findTokenRefs } from './detect.ts';
import { UserError } from './errors.ts';

/** Commands that read a quoted message, and how. */
const READERS: Readonly<Record<string, (text: string) => string[] | undefined>> = {
  token: tokenArgs,
  kol: kolArgs,
};

export function readsQuote(command: string): boolean {
  return command in READERS;
}

/** The words `/command` would have been given; throws a UserError when the message has nothing to read. */
export function argsFromQuote(command: string, quoted: string): string[] {
  const read = READERS[command];
  const args = read?.(quoted);
  if (args) return args;
  throw new UserError(
    { key: command === 'kol' ? 'lookup.replyNothingKol' : 'lookup.replyNothingToken' },
    `/${command}`,
  );
}

function tokenArgs(text: string): string[] | undefined {
  const ref = findTokenRefs(text, 1)[0];
  if (ref) return ref.chains.length === 1 ? [ref.chains[0]!, ref.address] : [ref.address];
  const symbol = /(?:^|\s)\$([A-Za-z][A-Za-z0-9]{1,15})\b/.exec(text);
  return symbol ? [`$${symbol[1]}`] : undefined;
}

/** x.com paths that are not profiles. */
const NOT_PROFILES = new Set([
  'home',
  'i',
  'search',
  'explore',
  'intent',
  'share',
  'hashtag',
  'settings',
  'messages',
  'notifications',
  'login',
  'signup',
  'tos',
  'privacy',
]);

/** The handle of an x.com (or twitter.com) profile or tweet link: "https://x.com/name" -> "@name". */
export function profileHandle(link: string): string | undefined {
  const m = /^(?:https?:\/\/)?(?:www\.|mobile\.)?(?:x|twitter)\.com\/([A-Za-z0-9_]{1,15})(?:[/?#]\S*)?$/i.exec(
    link.trim(),
  );
  return m && !NOT_PROFILES.has(m[1]!.toLowerCase()) ? `@${m[1]}` : undefined;
}

function kolArgs(text: string): string[] | undefined {
  for (const m of text.matchAll(
    /(?:^|[\s(])(?:https?:\/\/)?(?:www\.|mobile\.)?(?:x|twitter)\.com\/([A-Za-z0-9_]{1,15})(?![A-Za-z0-9_])/gi,
  )) {
    if (!NOT_PROFILES.has(m[1]!.toLowerCase())) return [`@${m[1]}`];
  }
  const handle = /(?:^|[^A-Za-z0-9_@])@([A-Za-z0-9_]{1,15})(?![A-Za-z0-9_@.])/.exec(text);
  return handle ? [`@${handle[1]}`] : undefined;
}
