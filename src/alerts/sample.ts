/**
 * `/alerts test`: a real alert built from the newest tweet in the feed, marked as
 * a test, sent through the same outbox and sender as real alerts, so it proves
 * the bot may post here and shows exactly how alerts will look.
 */
import type { CommandContext } from '../core/command.ts';
import { UserError } from '../core/errors.ts';
import type { Subscription } from '../store/subscriptions.ts';
import { reasonLine, tweetFacts } from './matcher.ts';
import type { OutboxEntry } from '../store/outbox.ts';
import type { ChainId } from '../api/chains.ts';

export async function testAlert(ctx: CommandContext, sub: Subscription, subId: string): Promise<OutboxEntry> {
  const r = await ctx.api.getTweets({ limit: 5 }, { signal: ctx.signal, budgetMs: ctx.budgetMs, cache: 'bypass' });
  const facts = r.items.map(tweetFacts).find((f) => f !== undefined);
  if (!facts) throw new UserError('The feed is empty right now; try the test again in a minute.');
  const t = facts.tweet.token;
  const a = facts.tweet.x_user[0];
  const username = a?.username ?? facts.username;
  return {
    id: `test-${ctx.now()}-${subId}`,
    subId,
    platform: sub.platform,
    chatId: sub.chatId,
    isGroup: sub.isGroup,
    content: {
      kind: 'alert',
      test: true,
      token: { name: t.name, symbol: t.symbol, chain: t.chain_id as ChainId, address: t.token_address, score: t.avg_score, marketCap: null, change1h: t.change1h, change24h: t.change24h },
      kols: [{ username, displayName: a?.display_name ?? username, followers: facts.followers, score: facts.kolScore, tweetUrl: `https://x.com/${encodeURIComponent(username)}/status/${facts.tweet.twitter_id}`, text: facts.tweet.content, tweetedAt: facts.tweet.tweeted_at }],
      reason: reasonLine(sub.filters, facts),
      actions: [],
    },
    createdAt: ctx.now(),
    state: 'pending',
    attempts: 0,
    notBefore: 0,
  };
}
