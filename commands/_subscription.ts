/**
 * What `/subscribe`, `/unsubscribe`, `/alerts` and `/mute` share: which
 * subscription the caller is talking about, and the feed head a new one starts
 * from. Changes go through src/alerts/subscriptions.ts.
 */
import type { Destination } from '../src/alerts/subscriptions.ts';
import type { CommandContext } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { lastHead } from '../src/alerts/feedReader.ts';
import { subscriptionId, type FeedPosition, type Subscription } from '../src/store/subscriptions.ts';

/**
 * This chat (or the forum topic asked in) as an alert destination, and its subscription id.
 * A Discord forum's post is not a destination: asked there, it is the forum itself (each alert
 * opens a post of its own).
 */
export function destinationOf(ctx: CommandContext): Destination & { id: string } {
  const { platform, chatId } = ctx.caller;
  const threadId = ctx.caller.forum ? undefined : ctx.caller.threadId;
  return {
    id: subscriptionId(platform, chatId, threadId),
    platform,
    chatId,
    ...(threadId ? { threadId } : {}),
    isGroup: ctx.caller.chatType === 'group',
    ...(ctx.caller.serverId ? { serverId: ctx.caller.serverId } : {}),
    ...(ctx.caller.chatName ? { name: ctx.caller.chatName } : {}),
  };
}

export async function requireSubscription(ctx: CommandContext): Promise<Subscription> {
  const sub = await ctx.store.subscriptions.get(destinationOf(ctx).id);
  if (!sub) throw new UserError(ctx.t('subscribe.notOn'), '/subscribe token_score:75 chains:solana');
  return sub;
}

/** The feed's head as the watcher last read it: a new subscription hears only what comes after it. */
export function feedHead(ctx: CommandContext): Promise<FeedPosition | null> {
  return lastHead(ctx.store.watch);
}
