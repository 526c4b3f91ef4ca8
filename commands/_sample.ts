/**
 * `/alerts test`: a real alert built from the newest tweet in the feed, marked as
 * a test, sent through the same outbox and sender as real alerts, so it proves
 * the bot may post here and shows exactly how alerts will look. It uses the same
 * sources as a real alert (author facts from op 7 when the feed lacks them, the
 * market from op 2) and says, filter by filter, whether the sample would pass.
 */
import { testAlertId } from '../src/alerts/testAlert.ts';
import type { ChainId } from '../src/domain/chains.ts';
import { createAuthorLookup } from '../src/alerts/authors.ts';
import { marketNow } from '../src/alerts/market.ts';
import { tweetFacts } from '../src/alerts/matcher.ts';
import { filterChecks } from '../src/alerts/checks.ts';
import { DEFAULT_LINKS, tokenLinks } from '../src/domain/links.ts';
import { hasMarketFilters } from '../src/alerts/rules.ts';
import { alertEntry, alertKols, alertToken } from '../src/alerts/plan.ts';
import type { CommandContext } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { translator } from '../src/i18n/index.ts';
import { renderMessage } from '../src/i18n/message.ts';

const ENGLISH = translator('en');
import type { OutboxEntry } from '../src/store/outbox.ts';
import type { Subscription } from '../src/store/subscriptions.ts';

export async function testAlert(ctx: CommandContext, sub: Subscription): Promise<OutboxEntry> {
  const r = await ctx.api.getTweets({ limit: 5 }, { signal: ctx.signal, budgetMs: ctx.budgetMs, cache: 'bypass' });
  const tweet = r.items.find((t) => tweetFacts(t) !== undefined);
  if (!tweet) throw new UserError(ctx.t('subscribe.feedEmpty'));
  const lookup = createAuthorLookup({ api: ctx.api, log: ctx.log, now: ctx.now });
  const opts = { budgetMs: ctx.budgetMs, log: ctx.log, signal: ctx.signal };
  const [{ facts: authors }, markets] = await Promise.all([
    lookup.fill([tweet], opts),
    marketNow(ctx.api, [{ chain: tweet.token.chain_id as ChainId, address: tweet.token.token_address }], opts),
  ]);
  const facts = tweetFacts(tweet, authors.get(tweet.id))!;
  const market = markets.get(facts.tokenKey) ?? null;
  const { parts, checks, pass } = filterChecks(sub.filters, facts, hasMarketFilters(sub.filters) ? market : undefined);
  const verdict = { key: pass ? 'alert.samplePass' : 'alert.sampleFail' };
  const now = ctx.now();
  return alertEntry(
    testAlertId(now, sub.id),
    sub,
    {
      kind: 'alert',
      test: true,
      token: alertToken(facts, market),
      kols: alertKols([facts]),
      reason: `${renderMessage(ENGLISH, verdict)}: ${parts.join(', ')}`,
      checks: [verdict, ...checks],
      actions: [],
      links: tokenLinks(ctx.links ?? DEFAULT_LINKS, facts.chain as ChainId, tweet.token.token_address),
    },
    now,
  );
}
