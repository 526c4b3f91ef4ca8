/**
 * `/alerts test`: a real alert built from the newest tweet in the feed, marked as
 * a test, sent through the same outbox and sender as real alerts, so it proves
 * the bot may post here and shows exactly how alerts will look.
 */
import type { CommandContext } from '../core/command.ts';
import { UserError } from '../core/errors.ts';
import type { Subscription } from '../store/subscriptions.ts';
import { createAuthorLookup } from './authors.ts';
import { marketNow } from './market.ts';
import { filterChecks, tweetFacts } from './matcher.ts';
import type { OutboxEntry } from './outbox.ts';
import { tokenOf, uniqueKols } from './plan.ts';
import type { ChainId } from '../api/chains.ts';

export async function testAlert(ctx: CommandContext, sub: Subscription, subId: string): Promise<OutboxEntry> {
  const r = await ctx.api.getTweets({ limit: 5 }, { signal: ctx.signal, budgetMs: ctx.budgetMs, cache: 'bypass' });
  const tweet = r.items.find((t) => tweetFacts(t) !== undefined);
  if (!tweet) throw new UserError('The feed is empty right now; try the test again in a minute.');
  // The same sources as a real alert: author facts from op 7 when the feed lacks them, market from op 2.
  const lookup = createAuthorLookup({ api: ctx.api, log: ctx.log, now: ctx.now });
  const opts = { budgetMs: ctx.budgetMs, log: ctx.log, signal: ctx.signal };
  const [{ facts: authors }, markets] = await Promise.all([
    lookup.fill([tweet], opts),
    marketNow(ctx.api, [{ chain: tweet.token.chain_id as ChainId, address: tweet.token.token_address }], opts),
  ]);
  const facts = tweetFacts(tweet, authors.get(tweet.id))!;
  const { parts, pass } = filterChecks(sub.filters, facts);
  const verdict = pass ? 'Sample tweet; it passes this chat’s filters' : 'Sample tweet; it would NOT alert here';
  return {
    id: `test-${ctx.now()}-${subId}`,
    subId,
    platform: sub.platform,
    chatId: sub.chatId,
    isGroup: sub.isGroup,
    content: {
      kind: 'alert',
      test: true,
      token: tokenOf(facts, markets.get(facts.tokenKey) ?? null),
      kols: uniqueKols([facts]),
      reason: `${verdict}: ${parts.join(', ')}`,
      actions: [],
    },
    createdAt: ctx.now(),
    state: 'pending',
    attempts: 0,
    notBefore: 0,
  };
}
