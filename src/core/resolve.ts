/**
 * Turning what a user typed into what the API wants: a KOL name into the
 * Twitter id the KOL operations take in their path, and a bare token address
 * into a chain. Shared by /kol, /momentum, /kolmap and /token, /tweets, /mindmap.
 * The client caches answers; only the username -> Twitter id mapping is
 * remembered here (KolMemo), because it costs several calls to find and hardly ever changes.
 */
import { ApiNotFoundError, type KolAccountRanked, type KolTableItem } from '../api/index.ts';
import { ID_MEMO_TTL_MS } from './kolMemo.ts';
import {
  ADDRESS_HINT,
  CHAIN_ALIASES,
  CHAIN_LABEL,
  CHAINS,
  type ChainId,
  chainsForAddress,
  isValidAddress,
} from '../domain/chains.ts';
import type { CommandContext, RawArgs } from './command.ts';
import { UserError } from './errors.ts';

export interface ResolvedKol {
  /** The Twitter id, a digit string (ids exceed 2^53). */
  readonly xUserId: string;
  /** Known when the user gave a name, or when the table row was found. */
  readonly username: string | undefined;
  /** The KOL table row (operation 9), when the user gave a name or the id's name was found. */
  readonly row: KolTableItem | undefined;
  /** The X account as the win-rate table (operation 5) lists it: followers, labels, names. */
  readonly account?: KolAccountRanked | undefined;
}

type Memo = Pick<CommandContext, 'kolMemo' | 'now'>;
type Api = Pick<CommandContext, 'api'> & Memo;

/** Options for one upstream call: the command's signal and what is left of its time budget. */
export type CallFn = () => { signal: AbortSignal; budgetMs: number };

/**
 * One time budget across a command's calls made one after another: each call
 * gets what is left, so a chain of calls cannot outlast the command's budget.
 */
export function budgetFrom(ctx: Pick<CommandContext, 'signal' | 'budgetMs'>): CallFn {
  const end = performance.now() + ctx.budgetMs;
  return () => ({ signal: ctx.signal, budgetMs: Math.max(1, Math.round(end - performance.now())) });
}

/** Operation 5 pages scanned to find a Twitter id; 10 x 30 covers 300 KOLs with the same labels. */
const ID_PAGES = 10;
const ID_PAGE_SIZE = 30;

/**
 * The Twitter id of `input` without any call: a numeric id as typed, or a
 * username resolved recently. Lets /kol fetch the card's data in parallel with
 * the table row instead of after it.
 */
export function knownKolId(ctx: Memo, input: string): string | undefined {
  const text = input.trim();
  if (/^\d{1,20}$/.test(text)) return text.replace(/^0+(?=\d)/, '');
  return ctx.kolMemo.ids.get(text.replace(/^@/, '').toLowerCase(), ctx.now());
}

function remember(ctx: Memo, username: string, id: string, account?: KolAccountRanked): void {
  ctx.kolMemo.ids.set(username.toLowerCase(), id, ID_MEMO_TTL_MS, ctx.now());
  if (account) ctx.kolMemo.accounts.set(id, account, ID_MEMO_TTL_MS, ctx.now());
}

function rememberedAccount(ctx: Memo, id: string): KolAccountRanked | undefined {
  return ctx.kolMemo.accounts.get(id, ctx.now());
}

/**
 * `@name`, `name` or a numeric Twitter id. A bare digit string is an id; `@123`
 * is a (numeric) username. Throws UserError when no KOL has that name.
 */
export async function resolveKol(
  ctx: Api,
  input: string,
  call: CallFn,
  o: { names?: boolean } = {},
): Promise<ResolvedKol> {
  const text = input.trim();
  if (/^\d{1,20}$/.test(text)) {
    const xUserId = text.replace(/^0+(?=\d)/, '');
    return o.names ? namesOf(ctx, xUserId, call) : { xUserId, username: undefined, row: undefined };
  }
  const name = text.replace(/^@/, '');
  // The search is partial and also matches display names: only the exact username is this KOL.
  const table = await ctx.api.getKolTable({ search: name, limit: 100 }, call());
  const lower = name.toLowerCase();
  const row = table.items.find((r) => r.kol.toLowerCase() === lower);
  if (!row) {
    const near = table.items.slice(0, 5).map((r) => `@${r.kol}`);
    throw new UserError(
      near.length
        ? { key: 'errors.kolNoSuchNear', values: { name, near: near.join(', ') } }
        : { key: 'errors.kolNoSuch', values: { name } },
      near.length ? `/kol ${near[0]}` : '/kols sort:score',
    );
  }
  const known = knownKolId(ctx, name);
  const account = known ? rememberedAccount(ctx, known) : await twitterIdOf(ctx, row, call);
  const xUserId = known ?? account?.twitter_id;
  if (xUserId === undefined) {
    throw new UserError({ key: 'errors.kolNoId', values: { name: row.kol } }, '/kols sort:score');
  }
  remember(ctx, row.kol, xUserId, account);
  return { xUserId, username: row.kol, row, account };
}

/**
 * A numeric X id to the same facts a username gives: the win-rate table (the one
 * listing that carries the X id) names the account, then the KOL table row is
 * found by that name. An id neither lists keeps no name (the card says so).
 */
async function namesOf(ctx: Api, xUserId: string, call: CallFn): Promise<ResolvedKol> {
  const unnamed: ResolvedKol = { xUserId, username: undefined, row: undefined };
  // The name is a nicety next to the scores: if the tables cannot be read, the card goes out without it.
  const account =
    rememberedAccount(ctx, xUserId) ??
    (await scanWinRates(
      ctx,
      { limit: ID_PAGE_SIZE, sortField: 'numTokensCountedWinRate' },
      (i) => i.x_user.twitter_id === xUserId,
      call,
    ).catch(() => undefined));
  if (!account) return unnamed;
  const table = await ctx.api.getKolTable({ search: account.username, limit: 100 }, call()).catch(() => undefined);
  const row = table?.items.find((r) => r.kol.toLowerCase() === account.username.toLowerCase());
  remember(ctx, account.username, xUserId, account);
  return { xUserId, username: account.username, row, account };
}

/**
 * The table row carries the service's internal id, while the KOL operations
 * take the Twitter id in their path. The win-rate table (operation 5) is the
 * only listing that carries both next to the username, so it is read, narrowed
 * to the KOL's labels, page by page in parallel. A KOL it does not list (no
 * counted tokens yet) has no known X id: undefined.
 */
async function twitterIdOf(ctx: Api, row: KolTableItem, call: CallFn): Promise<KolAccountRanked | undefined> {
  const base = {
    limit: ID_PAGE_SIZE,
    sortField: 'numTokensCountedWinRate' as const,
    ...(row.labels.length ? { labels: [...row.labels] } : {}),
  };
  // The row's own id is the service's internal id, not an X id: guessing with it could show another account.
  return scanWinRates(
    ctx,
    base,
    (i) => i.x_user_id === row.id || i.x_user.username.toLowerCase() === row.kol.toLowerCase(),
    call,
  );
}

type WinRateScan = { limit: number; sortField: 'numTokensCountedWinRate'; labels?: string[] };

/** The first win-rate item `hit` accepts, reading at most ID_PAGES pages (the rest in parallel). */
async function scanWinRates(
  ctx: Api,
  base: WinRateScan,
  hit: (i: { x_user_id: string; x_user: KolAccountRanked }) => boolean,
  call: CallFn,
): Promise<KolAccountRanked | undefined> {
  const first = await ctx.api.getKolWinRates({ ...base, offset: 0 }, call());
  const found = first.items.find(hit);
  if (found) return found.x_user;
  const pages = Math.min(ID_PAGES, Math.ceil(first.total / ID_PAGE_SIZE));
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
      ctx.api.getKolWinRates({ ...base, offset: (i + 1) * ID_PAGE_SIZE }, call()),
    ),
  );
  for (const page of rest) {
    const f = page.items.find(hit);
    if (f) return f.x_user;
  }
  return undefined;
}

/** `/kol @x` written back for buttons: the name when known, else the id. */
export function kolRef(k: ResolvedKol): string {
  return k.username ? `@${k.username}` : k.xUserId;
}

function isChainWord(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const t = v.trim().toLowerCase();
  return (CHAINS as readonly string[]).includes(t) || t in CHAIN_ALIASES;
}

/**
 * `normalize` hook for commands taking `<chain> <address>`: `/token <address>`
 * infers the chain (base58 can only be Solana), `/token <address> <chain>`
 * is put back in order, and an address several chains share asks which.
 */
export function inferChain(command: string, o: { ambiguous?: 'ask' | 'leave' } = {}) {
  return (raw: RawArgs): RawArgs => {
    const { chain, address } = raw;
    if (typeof chain === 'string' && isChainWord(address) && !isChainWord(chain)) {
      return { ...raw, chain: address, address: chain };
    }
    if (typeof chain !== 'string' || (address !== undefined && address !== '') || isChainWord(chain)) return raw;
    const guess = chain.trim();
    const chains = chainsForAddress(guess);
    if (chains.length === 1) return { ...raw, chain: chains[0], address: guess };
    // The command may look on every candidate chain itself (`/token` does).
    if (chains.length > 1 && o.ambiguous === 'leave') return { ...raw, chain: undefined, address: guess };
    if (chains.length > 1) {
      const short = `${guess.slice(0, 6)}…`;
      throw new UserError(
        {
          key: 'errors.whichChain',
          values: { short, chains: { or: chains }, commands: { or: chains.map((c) => `/${command} ${c} ${short}`) } },
        },
        `/${command} ${chains[0]} ${guess}`,
      );
    }
    return raw;
  };
}

/** Throws a UserError naming the format the chain expects. */
export function checkAddress(chain: ChainId, address: string, example: string): void {
  if (isValidAddress(chain, address)) return;
  throw new UserError(
    {
      key: 'errors.notAddress',
      values: { chain: CHAIN_LABEL[chain], expected: { key: `errors.address.${ADDRESS_HINT[chain]}` } },
    },
    example,
  );
}

/**
 * The KOL operations answer 404 for an id they do not know: said plainly,
 * with the input the user typed, rather than the generic "not found".
 */
export async function kolNotFound<T>(input: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof ApiNotFoundError) {
      const text = input.trim();
      throw new UserError(
        /^\d+$/.test(text)
          ? { key: 'errors.kolUnknownId', values: { id: text } }
          : { key: 'errors.kolUnknownName', values: { name: text.replace(/^@/, '') } },
        '/kols sort:score',
      );
    }
    throw err;
  }
}
