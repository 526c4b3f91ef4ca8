/**
 * Recording members' calls (/callboard): from a paste the automatic cards read,
 * from /mycall, or from Discord's "Record call". The credit itself is decided
 * in the store (store/membercalls.ts, first writer wins); this decides who may
 * call (people, not bots or anonymous posts) and what a call is worth (a known
 * token with a market cap, read now: the lookup's answer is at most the
 * client cache's 15 s old).
 */
import type { FoundToken } from './lookup.ts';
import type { Platform } from './command.ts';
import type { Store } from '../store/index.ts';
import type { MemberRef } from '../store/calls.ts';
import { memberCall, type CallOutcome } from '../store/membercalls.ts';
import { subscriptionId } from '../store/subscriptions.ts';

export interface CallSite {
  readonly platform: Platform;
  readonly chatId: string;
  /** The member's message ('' for a command without one). */
  readonly messageId: string;
  readonly member: MemberRef;
}

export interface Recorded {
  readonly found: FoundToken;
  readonly outcome: CallOutcome;
}

/** The board of a chat: its destination key, like its alerts'. */
export const boardOf = (platform: Platform, chatId: string): string => subscriptionId(platform, chatId);

/** A market cap a call can be measured from; null when the service has none. */
export function capOf(f: FoundToken): number | null {
  const v = Number(f.item.marketcap);
  return f.item.marketcap !== null && f.item.marketcap !== undefined && Number.isFinite(v) && v > 0 ? v : null;
}

/** Records a call per token found (those with a market cap), in order; the store decides each credit. */
export async function recordCalls(
  store: Pick<Store, 'members'>,
  found: readonly FoundToken[],
  site: CallSite,
  at: number,
): Promise<Recorded[]> {
  const out: Recorded[] = [];
  for (const [i, f] of found.entries()) {
    const marketCap = capOf(f);
    if (marketCap === null) continue;
    const liq = Number(f.item.liquidity);
    const t = f.item.token;
    const call = memberCall({
      board: boardOf(site.platform, site.chatId),
      platform: site.platform,
      chatId: site.chatId,
      messageId: site.messageId,
      member: site.member,
      token: { chain: f.chain, address: t.address, symbol: t.symbol, name: t.name },
      marketCap,
      liquidity: Number.isFinite(liq) && f.item.liquidity !== null ? liq : null,
      at,
      points: store.members.points,
      nonce: `${site.messageId || 'cmd'}-${i}`,
    });
    out.push({ found: f, outcome: await store.members.call(call) });
  }
  return out;
}
