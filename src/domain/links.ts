/**
 * The links people click after an alert or a token card: charts, trading
 * terminals and token-safety checks, per chain, built from URL templates. The
 * defaults carry no referral parameters; an operator replaces, adds or removes
 * any of them with `LINKS_<NAME>` (every chain) or `LINKS_<NAME>_<CHAIN>` (one
 * chain) in the environment, parsed once by config.ts. The bot never fetches
 * these URLs: they only become buttons.
 */
import { CHAINS, type ChainId } from './chains.ts';

export type LinkKind = 'chart' | 'trade' | 'safety';

export interface LinkSpec {
  /** The variable's NAME part, upper case: `DEXSCREENER` for `LINKS_DEXSCREENER`. */
  readonly name: string;
  /** The button's label: a product name, the same in every language (like a ticker). */
  readonly label: string;
  readonly kind: LinkKind;
  /** A template per chain; a chain without one gets no button. */
  readonly templates: Partial<Readonly<Record<ChainId, string>>>;
}

/** Every link set, in button order: charts, then trading, then safety checks. */
export type LinkSet = readonly LinkSpec[];

const every = (template: string): Record<ChainId, string> =>
  Object.fromEntries(CHAINS.map((c) => [c, template])) as Record<ChainId, string>;

/**
 * The defaults: sites traders on each chain commonly use, without referral
 * parameters. Aptos has charts only: no trading terminal or safety checker is
 * common enough there to pick one for everybody (an operator can add one).
 */
export const DEFAULT_LINKS: LinkSet = [
  {
    name: 'DEXSCREENER',
    label: 'DexScreener',
    kind: 'chart',
    templates: every('https://dexscreener.com/{chain}/{address}'),
  },
  {
    name: 'BIRDEYE',
    label: 'Birdeye',
    kind: 'chart',
    templates: every('https://birdeye.so/token/{address}?chain={chain}'),
  },
  {
    name: 'GMGN',
    label: 'GMGN',
    kind: 'trade',
    templates: {
      solana: 'https://gmgn.ai/sol/token/{address}',
      bsc: 'https://gmgn.ai/bsc/token/{address}',
      base: 'https://gmgn.ai/base/token/{address}',
    },
  },
  { name: 'JUPITER', label: 'Jupiter', kind: 'trade', templates: { solana: 'https://jup.ag/swap/SOL-{address}' } },
  {
    name: 'PANCAKESWAP',
    label: 'PancakeSwap',
    kind: 'trade',
    templates: { bsc: 'https://pancakeswap.finance/swap?chain=bsc&outputCurrency={address}' },
  },
  {
    name: 'UNISWAP',
    label: 'Uniswap',
    kind: 'trade',
    templates: { base: 'https://app.uniswap.org/swap?chain=base&outputCurrency={address}' },
  },
  {
    name: 'CETUS',
    label: 'Cetus',
    kind: 'trade',
    templates: { sui: 'https://app.cetus.zone/swap/?from=0x2::sui::SUI&to={address}' },
  },
  {
    name: 'RUGCHECK',
    label: 'RugCheck',
    kind: 'safety',
    templates: { solana: 'https://rugcheck.xyz/tokens/{address}' },
  },
  {
    name: 'GOPLUS',
    label: 'GoPlus',
    kind: 'safety',
    templates: {
      bsc: 'https://gopluslabs.io/token-security/56/{address}',
      base: 'https://gopluslabs.io/token-security/8453/{address}',
    },
  },
];

/** Most chart/trade/safety buttons on one message: with the tweet and explorer links, two rows on Discord. */
export const MAX_TOKEN_LINKS = 8;

/** Discord's limit on a link button's URL; a template leaves room for the longest address (a Move coin type). */
const URL_MAX = 512;
const LONGEST_ADDRESS = `0x${'f'.repeat(64)}::${'m'.repeat(40)}::${'N'.repeat(40)}`;

/** `LINKS_NAME` or `LINKS_NAME_CHAIN`. */
const VARIABLE = /^LINKS_([A-Z0-9]+(?:_[A-Z0-9]+)*)$/;

/** Why a template is not usable, or undefined when it is. */
export function templateProblem(template: string): string | undefined {
  const unknown = [...template.matchAll(/\{([^}]*)\}/g)]
    .map((m) => m[1])
    .filter((p) => p !== 'chain' && p !== 'address');
  if (unknown.length) return `may only use {chain} and {address} (found {${unknown[0]}})`;
  if (!template.includes('{address}')) return 'must contain {address}';
  const sample = fill(template, 'solana', LONGEST_ADDRESS);
  if (!URL.canParse(sample) || !/^https:\/\//i.test(sample)) return 'must be an https:// URL template';
  if (sample.length > URL_MAX) return `must stay within ${URL_MAX} characters with the longest address`;
  return undefined;
}

function fill(template: string, chain: ChainId, address: string): string {
  return template
    .replaceAll('{chain}', chain)
    .replaceAll('{address}', encodeURIComponent(address).replace(/%3A/gi, ':'));
}

/** `MY_TERMINAL` -> `My Terminal`. */
const labelOf = (name: string) =>
  name
    .split('_')
    .map((w) => w.charAt(0) + w.slice(1).toLowerCase())
    .join(' ');

/**
 * The link set the environment asks for: the defaults, with each `LINKS_*`
 * variable replacing, adding or (`off`) removing links. Problems name the
 * variable and the rule, never the value.
 */
export function linksFromEnv(env: Readonly<Record<string, string | undefined>>): {
  links: LinkSet;
  problems: string[];
} {
  const problems: string[] = [];
  const specs = new Map(DEFAULT_LINKS.map((s) => [s.name, { ...s, templates: { ...s.templates } }]));
  const vars = Object.keys(env)
    .filter((k) => k.startsWith('LINKS_'))
    .sort();
  // Every-chain variables first, so that a per-chain one refines them whatever their order.
  const parsed = vars.map((variable) => {
    const m = VARIABLE.exec(variable);
    const parts = m ? m[1]!.split('_') : [];
    const last = parts.at(-1)?.toLowerCase();
    const chain = parts.length > 1 && CHAINS.includes(last as ChainId) ? (last as ChainId) : undefined;
    return { variable, ok: m !== null, name: (chain ? parts.slice(0, -1) : parts).join('_'), chain };
  });
  parsed.sort((a, b) => Number(a.chain !== undefined) - Number(b.chain !== undefined));
  for (const { variable, ok, name, chain } of parsed) {
    const value = (env[variable] ?? '').trim();
    if (!ok) {
      problems.push(`${variable} must be named LINKS_<NAME> or LINKS_<NAME>_<CHAIN> (A-Z, 0-9 and _)`);
      continue;
    }
    let spec = specs.get(name);
    if (!spec) {
      spec = { name, label: labelOf(name), kind: 'trade', templates: {} };
      specs.set(name, spec);
    }
    if (value === '' || value.toLowerCase() === 'off') {
      if (chain) delete spec.templates[chain];
      else spec.templates = {};
      continue;
    }
    const problem = templateProblem(value);
    if (problem) {
      problems.push(`${variable} ${problem}, e.g. https://example.com/{chain}/{address}`);
      continue;
    }
    if (chain) spec.templates[chain] = value;
    else spec.templates = every(value);
  }
  const order: LinkKind[] = ['chart', 'trade', 'safety'];
  const links = [...specs.values()]
    .filter((s) => Object.keys(s.templates).length > 0)
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  return { links, problems };
}

/** The buttons of one token: at most MAX_TOKEN_LINKS, charts first. */
export function tokenLinks(set: LinkSet, chain: ChainId, address: string): { label: string; url: string }[] {
  const out: { label: string; url: string }[] = [];
  for (const s of set) {
    const template = s.templates[chain];
    if (template && out.length < MAX_TOKEN_LINKS) out.push({ label: s.label, url: fill(template, chain, address) });
  }
  return out;
}
