/**
 * `/alerts test`: a real alert built from the newest tweet in the feed, marked as
 * a test, sent through the same outbox and sender as real alerts, so it proves
 * the bot may post here and shows exactly how alerts will look.
 */
import { reasonLine, tweetFacts } from '../src/alerts/matcher.ts';
import { alertEntry, alertKols, alertToken } from '../src/alerts/plan.ts';
import type { CommandContext } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import type { OutboxEntry } from '../src/store/outbox.ts';
import type { Subscription } from '../src/store/subscriptions.ts';

export async function testAlert(ctx: CommandContext, sub: Subscription): Promise<OutboxEntry> {
  const r = await ctx.api.getTweets({ limit: 5 }, { signal: ctx.signal, budgetMs: ctx.budgetMs, cache: 'bypass' });
  const facts = r.items.map(tweetFacts).find((f) => f !== undefined);
  if (!facts) throw new UserError('The feed is empty right now; try the test again in a minute.');
  const now = ctx.now();
  return alertEntry(
    `test-${now}-${sub.id}`,
    sub,
    { kind: 'alert', test: true, token: alertToken(facts, null), kols: alertKols([facts]), reason: reasonLine(sub.filters, facts), actions: [] },
    now,
  );
}
