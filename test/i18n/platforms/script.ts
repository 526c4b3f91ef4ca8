/**
 * What every language is put through on every platform: each example of each
 * command (records the sandbox has swapped in), /help for each command, the
 * errors a user can cause, an upstream failure, hostile upstream names, and
 * the first button of every answer that has one. The console and both fakes
 * run the same list, and the checks on what comes out are shared too.
 */
import type { Command } from '../../../src/core/command.ts';
import { LOCALES, type Locale } from '../../../src/i18n/index.ts';
import { catalogueTexts } from '../../helpers/catalogue.ts';
import type { Faults, Sandbox } from '../../../src/sandbox/server.ts';
import { singleLine } from '../../../src/views/text.ts';
import { ENGLISH_WORDS } from '../../helpers/english.ts';

export interface Step {
  readonly line: string;
  /** Run by someone who may manage the chat (in a group), else by a member in a private chat. */
  readonly admin: boolean;
  /** An upstream fault in force while the step runs. */
  readonly fault?: Faults;
  /** Upstream text that must arrive as written (names with markup, CJK, RTL). */
  readonly intact?: readonly string[];
}

export const OTHER_LOCALES: readonly Locale[] = LOCALES.filter((l) => l !== 'en');

/** Errors a user can cause by typing, each with the platform that can even send it. */
const ERRORS: readonly string[] = [
  '/kols sort:winrat',
  '/kols sort:zzzzzz',
  '/kols limit:999',
  '/kols srot:score',
  '/kols min_score:80 max_score:20',
  '/kol @nosuchkolatall',
  '/kol bad-name!',
  '/token solana 0x12',
  '/token zzzzzzzzqqq',
  '/winrate start:zz',
  '/winrate start:2999-01-01',
  '/mute solana 0x12',
  '/alerts pause zz',
  '/language klingon',
  '/digest daily at:25:00',
];

/** Lines only a typed message can carry (a slash command UI cannot send them). */
export const TYPED_ONLY: readonly string[] = ['/zzzzzz', '/tokenz', '/kols limit:abc', '/kols one two', '/kol'];

export function script(sb: Sandbox, commands: ReadonlyMap<string, Command>): Step[] {
  const kol = sb.data.kols.find((k) => sb.data.shills.some((s) => s.kolId === k.id)) ?? sb.data.kols[0]!;
  const sol = sb.data.tokens.find((t) => t.chain_id === 'solana' && t.marketcap > 0)!;
  const base = sb.data.tokens.find((t) => t.chain_id === 'base' && t.marketcap > 0)!;
  const bsc = sb.data.tokens.find((t) => t.chain_id === 'bsc' && t.marketcap > 0)!;
  const swap = (line: string): string =>
    line
      .replace(/So11111111111111111111111111111111111111112/g, sol.address)
      .replace(/base 0x[0-9a-fA-F]{40}/g, `base ${base.address}`)
      .replace(/bsc 0x[0-9a-fA-F]{40}/g, `bsc ${bsc.address}`)
      .replace(/@(cryptoking|cobie)\b/g, `@${kol.username}`)
      .replace(/\b1790912474830548992\b/g, kol.twitter_id);
  const examples = (name: string): string[] => commands.get(name)?.examples.map(swap) ?? [];
  // Subscribe first (so /alerts, /mute, /digest and /calls act on a subscription), unsubscribe last;
  // /language with a code would change the chat's language for the steps after it: only shown here.
  const rest = [...commands.keys()].filter((n) => !['subscribe', 'unsubscribe', 'language'].includes(n)).sort();
  const { cjkToken, htmlToken, rtlKol } = sb.data.edge;
  return [
    ...examples('subscribe').map((line) => ({ line, admin: true })),
    ...rest.flatMap((name) => examples(name).map((line) => ({ line, admin: true }))),
    { line: '/language', admin: false },
    ...[...commands.keys()].sort().map((name) => ({ line: `/help ${name}`, admin: false })),
    ...ERRORS.map((line) => ({ line, admin: !line.startsWith('/k') && !line.startsWith('/t') })),
    { line: '/subscribe', admin: false },
    { line: '/winrate min_score:33', admin: false, fault: { rateLimit: { count: 1000, retryAfterSec: 600 } } },
    { line: `/token ${htmlToken.chain_id} ${htmlToken.address}`, admin: false, intact: [htmlToken.name] },
    { line: `/token ${cjkToken.chain_id} ${cjkToken.address}`, admin: false, intact: [cjkToken.name] },
    { line: `/kol @${rtlKol.username}`, admin: false, intact: [rtlKol.username] },
    ...examples('unsubscribe').map((line) => ({ line, admin: true })),
  ];
}

/**
 * English left in text meant for another language. `text` is what the user
 * reads with code spans and links already taken out; upstream text (tweets,
 * names, addresses) is removed here: tweet excerpts are prefixes of a tweet’s content.
 */
export function englishLeft(text: string, sb: Sandbox, locale?: Locale): string[] {
  let rest = text;
  for (const upstream of upstreamTexts(sb)) {
    const head = upstream.slice(0, 24);
    if (head.length < 8) continue;
    for (let at = rest.indexOf(head); at >= 0; at = rest.indexOf(head, at + 1)) {
      let end = at + head.length;
      while (end < rest.length && end - at < upstream.length && rest[end] === upstream[end - at]) end++;
      // The whole text, or an excerpt of it (cut where the view put its ellipsis).
      if (end - at === upstream.length || rest[end] === '…') rest = `${rest.slice(0, at)} ${rest.slice(end)}`;
    }
  }
  // Commands, handles and tickers are names, not words; `only:` is an option's name (names stay English).
  // Links are addresses, not prose: a trading site's `?from=…&to=…` is no translation's business.
  rest = rest
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/(^|[^\p{L}\p{N}])[/@$][\p{L}\p{N}_.]+/gu, '$1 ')
    .replace(/(^|[^\p{L}\p{N}])[a-z][a-z0-9_]*:/gu, '$1 ')
    // An option's name heading its line (a /help field: `only (required) · …`, `only      …` in a terminal).
    .replace(/^[ \t]*[a-z][a-z0-9_]*(?=$| \(| ·| {2})/gmu, ' ');
  const around = (at: number) => rest.slice(Math.max(0, at - 30), at + 30).replace(/\n/g, ' ');
  return [
    ...(locale ? englishLabels(text, locale) : []),
    ...[...rest.matchAll(ENGLISH_WORDS)].map((m) => `${m[0]} (in “${around(m.index ?? 0)}”)`),
    ...(locale ? englishPhrases(locale) : [])
      .filter((p) => rest.includes(p))
      .map((p) => `English text “${p}” (in “${around(rest.indexOf(p))}”)`),
  ];
}

/**
 * Labels the bot puts around what it says (an error's "Example:", the console's
 * "Error:", an alert's buttons): one or two words, too short for the phrase check
 * below, and "Token card" is also the name of Discord's menu entry, which the
 * catalogues quote after "→".
 */
const LABEL_KEYS = ['errors.exampleLabel', 'errors.errorLabel', 'alert.tokenCardButton', 'alert.muteButton'];

function englishLabels(text: string, locale: Locale): string[] {
  const en = catalogueTexts('en');
  const own = catalogueTexts(locale);
  return LABEL_KEYS.filter((k) => own.get(k) !== en.get(k)).flatMap((k) => {
    const label = en.get(k)!;
    const at = new RegExp(`(?<!→ )(?<!\\p{L})${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'u');
    const m = at.exec(text);
    return m ? [`English label “${label}” (in “${text.slice(Math.max(0, m.index - 30), m.index + 30)}”)`] : [];
  });
}

const phraseCache = new Map<Locale, string[]>();

/**
 * Pieces of the English catalogue (between placeholders, two words or more)
 * that `locale`'s catalogue never writes itself: seen in its answer, they are
 * an English text left untranslated, whatever words it uses.
 */
function englishPhrases(locale: Locale): string[] {
  let out = phraseCache.get(locale);
  if (!out) {
    const own = [...catalogueTexts(locale).values()].join('\n');
    out = [
      ...new Set(
        [...catalogueTexts('en').values()].flatMap((t) =>
          t
            .split(/\{\{\w+\}\}|[\n:()“”"'·—]|\/[a-z_]+|<[a-z_]+>/)
            .map((p) => p.trim().replace(/[.,;!?]+$/, ''))
            .filter((p) => p.length >= 8 && /\p{L}{2,} \p{L}{2,}/u.test(p) && !own.includes(p)),
        ),
      ),
    ];
    phraseCache.set(locale, out);
  }
  return out;
}

const upstreamCache = new WeakMap<Sandbox, string[]>();
function upstreamTexts(sb: Sandbox): string[] {
  let out = upstreamCache.get(sb);
  if (!out) {
    out = [
      ...sb.data.tweets.map((t) => singleLine(t.content)),
      ...sb.data.tokens.flatMap((t) => [t.name, t.address]),
      ...sb.data.kols.flatMap((k) => [k.display_name ?? '', k.description ?? '']),
    ]
      .filter((s) => s.length >= 8)
      .sort((a, b) => b.length - a.length);
    upstreamCache.set(sb, out);
  }
  return out;
}
