/**
 * Token references in free text: what people paste in chats (a mint, a
 * contract, a Move coin type, or a link from an explorer or a trading site).
 * Platform-neutral; the automatic cards, the reply form and the inline mode all
 * read text through `findTokenRefs`.
 *
 * Precision over recall: every reference costs upstream lookups, and a wrong
 * one is silent anyway. So transaction hashes and signatures, bare 0x + 64 hex
 * (Sui/Aptos objects, EVM tx hashes) and base58 runs that do not decode to a
 * 32-byte key are never references, and links of known sites are read only by
 * their own rules (a wallet or transaction page names no token).
 */
import { addressKey, type ChainId, isSolanaAddress, isValidAddress } from '../domain/chains.ts';

export interface TokenRef {
  readonly address: string;
  /** One chain when the text names it (a link) or the format does (base58); several to look up on each. */
  readonly chains: readonly ChainId[];
  /** 'text' for a bare address, else the site the link came from. */
  readonly via: string;
}

/** References past this many in one message are ignored: each costs lookups. */
export const MAX_REFS = 10;

const B58 = '1-9A-HJ-NP-Za-km-z';
/** Maximal base58 runs (linear); the 32-44 length is checked after, so a longer run is never cut into a key. */
const BASE58_RUN = new RegExp(`[${B58}]{32,}`, 'g');
const MOVE_TYPE = /(?<![0-9A-Za-z_])0x[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*/g;
const EVM_ADDR = /(?<![0-9A-Za-z_])0x[0-9a-fA-F]{40}(?![0-9A-Za-z_:])/g;
/** Any other 0x run (hashes, objects): blanked so its hex cannot pass for base58. */
const HEX_RUN = /0x[0-9a-fA-F]+/g;

const SITES = [
  'solscan.io',
  'birdeye.so',
  'gmgn.ai',
  'pump.fun',
  'dexscreener.com',
  'geckoterminal.com',
  'bscscan.com',
  'basescan.org',
  'suiscan.xyz',
  'suivision.xyz',
  'explorer.aptoslabs.com',
] as const;
type Site = (typeof SITES)[number];
/** A known site's name; the link around it is found by walking to the delimiters (cheaper than one big URL pattern). */
const SITE_NAME = new RegExp(SITES.map((x) => x.replace(/\./g, '\\.')).join('|'), 'gi');
/** Characters that end a link in chat text. */
const DELIM = /[\s<>"'`()[\]{}]/;
const HOST_PREFIX = /^(?:https?:\/\/)?((?:[a-z0-9-]+\.)*)$/i;

/** Chain slugs as the sites write them. */
const SLUG: Readonly<Record<string, ChainId>> = {
  solana: 'solana',
  sol: 'solana',
  bsc: 'bsc',
  bnb: 'bsc',
  base: 'base',
  sui: 'sui',
  'sui-network': 'sui',
  aptos: 'aptos',
};

function slug(s: string | null | undefined): ChainId | undefined {
  return s ? SLUG[s.toLowerCase()] : undefined;
}

/** [chain, address] named by a link of `site`, or undefined when the page is not a token's. */
function fromLink(site: Site, host: string, path: string, q: URLSearchParams): [ChainId, string] | undefined {
  const seg = path
    .split('/')
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  const mainnet = (n: string | null) => n === null || n === '' || n.toLowerCase() === 'mainnet';
  switch (site) {
    case 'solscan.io': // solscan.io/token/<mint> (cluster=devnet pages are not mainnet tokens)
      return seg[0] === 'token' && seg[1] && mainnet(q.get('cluster')) ? ['solana', seg[1]] : undefined;
    case 'birdeye.so': // birdeye.so/token/<addr>?chain=<c> (solana when absent), birdeye.so/<c>/token/<addr>
      if (seg[0] === 'token' && seg[1]) return withChain(q.get('chain') ? slug(q.get('chain')) : 'solana', seg[1]);
      return seg[1] === 'token' && seg[2] ? withChain(slug(seg[0]), seg[2]) : undefined;
    case 'gmgn.ai': // gmgn.ai/<sol|bsc|base>/token/<addr>, referral form <code>_<addr>
      return seg[1] === 'token' && seg[2]
        ? withChain(slug(seg[0]), seg[2].slice(seg[2].lastIndexOf('_') + 1))
        : undefined;
    case 'pump.fun': // pump.fun/<mint>, pump.fun/coin/<mint>
      return seg[0] === 'coin' && seg[1] ? ['solana', seg[1]] : seg.length === 1 ? ['solana', seg[0]!] : undefined;
    case 'dexscreener.com': // dexscreener.com/<chain>/<token or pair address>
      return seg.length >= 2 ? withChain(slug(seg[0]), seg[1]!) : undefined;
    case 'geckoterminal.com': // geckoterminal.com/<network>/tokens/<addr> (pools/<addr> names a pool, not a token)
      return seg[1] === 'tokens' && seg[2] ? withChain(slug(seg[0]), seg[2]) : undefined;
    case 'bscscan.com':
      return seg[0] === 'token' && seg[1] ? ['bsc', seg[1]] : undefined;
    case 'basescan.org':
      return seg[0] === 'token' && seg[1] ? ['base', seg[1]] : undefined;
    case 'suiscan.xyz': // suiscan.xyz/mainnet/coin/<type>
      return seg[0] === 'mainnet' && seg[1] === 'coin' && seg[2] ? ['sui', seg[2]] : undefined;
    case 'suivision.xyz': // suivision.xyz/coin/<type>; testnet.suivision.xyz is another network
      return seg[0] === 'coin' && seg[1] && /^(?:www\.)?suivision\.xyz$/i.test(host) ? ['sui', seg[1]] : undefined;
    case 'explorer.aptoslabs.com': // /coin/<type>?network=mainnet, /fungible_asset/<addr>
      return (seg[0] === 'coin' || seg[0] === 'fungible_asset') && seg[1] && mainnet(q.get('network'))
        ? ['aptos', seg[1]]
        : undefined;
  }
}

function withChain(chain: ChainId | undefined, address: string): [ChainId, string] | undefined {
  return chain ? [chain, address] : undefined;
}

function siteOf(host: string): Site | undefined {
  const h = host.toLowerCase();
  return SITES.find((s) => h === s || h.endsWith(`.${s}`));
}

function blankSpans(text: string, spans: readonly [number, number][]): string {
  let out = '';
  let at = 0;
  for (const [a, b] of spans) {
    out += text.slice(at, a) + ' '.repeat(b - a);
    at = b;
  }
  return out + text.slice(at);
}

/**
 * Token references in `text`, in order of appearance, without repeats (an EVM
 * address in two cases is one token), at most `max`.
 */
export function findTokenRefs(text: string, max = MAX_REFS): TokenRef[] {
  const out: TokenRef[] = [];
  const seen = new Set<string>();
  const add = (
    address: string,
    chains: readonly ChainId[],
    via: string,
    at: number,
    found: { at: number; ref: TokenRef }[],
  ) => {
    // One token per address: links come first, so a link that names the chain wins over the same bare address.
    const key = addressKey(address);
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ at, ref: { address, chains, via } });
  };
  const found: { at: number; ref: TokenRef }[] = [];
  let rest = text;
  // Links first: a known site's link is read by its rules only, then blanked.
  if (text.includes('.')) {
    const spans: [number, number][] = [];
    let after = 0;
    for (const m of text.matchAll(SITE_NAME)) {
      if (m.index < after) continue;
      let start = m.index;
      while (start > 0 && !DELIM.test(text[start - 1]!)) start--;
      let end = m.index + m[0].length;
      while (end < text.length && !DELIM.test(text[end]!)) end++;
      after = end;
      const prefix = HOST_PREFIX.exec(text.slice(start, m.index));
      const tail = text.slice(m.index + m[0].length, end);
      // `notdexscreener.com` or `dexscreener.com.evil` is another host.
      if (!prefix || (tail !== '' && tail[0] !== '/' && tail[0] !== '?')) continue;
      spans.push([start, end]);
      const host = (prefix[1] ?? '') + m[0];
      const site = siteOf(host);
      if (!site || tail[0] !== '/') continue;
      const [path, query = ''] = tail.replace(/[.,;:!?]+$/, '').split('?', 2) as [string, string?];
      const hit = fromLink(site, host, path.split('#')[0]!, new URLSearchParams(query.split('#')[0]));
      if (!hit) continue;
      const [chain, address] = hit;
      if (isValidAddress(chain, address)) add(address, [chain], site, start, found);
    }
    if (spans.length) rest = blankSpans(text, spans);
  }
  if (rest.includes('0x') || rest.includes('0X')) {
    for (const m of rest.matchAll(MOVE_TYPE)) add(m[0], ['sui', 'aptos'], 'text', m.index, found);
    for (const m of rest.matchAll(EVM_ADDR)) add(m[0], ['bsc', 'base'], 'text', m.index, found);
    rest = rest.replace(HEX_RUN, (h) => ' '.repeat(h.length));
  }
  for (const m of rest.matchAll(BASE58_RUN)) if (isSolanaAddress(m[0])) add(m[0], ['solana'], 'text', m.index, found);
  found.sort((a, b) => a.at - b.at);
  for (const f of found) {
    if (out.length >= max) break;
    out.push(f.ref);
  }
  return out;
}
