/**
 * What /callboard, /mycall, /lb and /stats share: the chat's board, and a token
 * named by address, link or $SYMBOL.
 */
import type { CommandContext } from '../src/core/command.ts';
import { findTokenRefs } from '../src/core/detect.ts';
import { UserError } from '../src/core/errors.ts';
import { findOnChains, searchTerm, searchTokens, type FoundToken } from '../src/core/lookup.ts';
import { boardOf } from '../src/core/membercalls.ts';
import { budgetFrom } from '../src/core/resolve.ts';

/** The chat's board (a private chat has its own, for trying it out). */
export function boardHere(ctx: CommandContext): string {
  return boardOf(ctx.caller.platform, ctx.caller.chatId);
}

export const PERIOD_MS = { '1d': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000, all: Infinity } as const;
export const PERIOD_ALIASES = { '24h': '1d', day: '1d', week: '7d', month: '30d' } as const;

/** The token a member means: an address or link found on its chains, else the best exact $SYMBOL match. */
export async function tokenNamed(ctx: CommandContext, text: string, example: string): Promise<FoundToken> {
  const call = budgetFrom(ctx);
  const [ref] = findTokenRefs(text, 1);
  if (ref) {
    const [hit] = await findOnChains(ctx.api, ref.address, ref.chains, call());
    if (hit) return hit;
  } else if (searchTerm(text)) {
    const [hit] = (await searchTokens(ctx.api, text, undefined, call())).exact;
    if (hit) return hit;
  }
  throw new UserError(ctx.t('board.unknown'), example);
}
