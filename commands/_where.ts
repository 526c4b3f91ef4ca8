/**
 * Where the settings panel opens. In a group on a platform with private deep
 * links (Telegram) it opens by default in the admin's private chat with the
 * bot, so the group's messages are not spent on settings; the admin may open it
 * in place instead. A channel only ever gets the link. In the private chat the
 * panel acts for the group (`for`, `thread`): every press asks the platform
 * again whether the caller manages that chat.
 */
import type { CommandContext } from '../src/core/command.ts';
import { PermissionError, UserError } from '../src/core/errors.ts';
import { isCanonicalChatId, isCanonicalThreadId } from '../src/domain/destination.ts';
import type { Action, CardView } from '../src/domain/view.ts';

export interface Where {
  readonly for?: string | undefined;
  readonly thread?: string | undefined;
  readonly here?: boolean | undefined;
}

/** The deep link's payload: `set_<chat>[_<thread>]`, within Telegram's 64 of [A-Za-z0-9_-]. */
export const linkPayload = (chatId: string, threadId: string | undefined) =>
  `set_${chatId}${threadId ? `_${threadId}` : ''}`;

/**
 * The link card a group or channel gets instead of the panel; undefined where the panel opens in place.
 * A topic's link makes the topic known (store/topics.ts): only such a link may name it.
 */
export async function linkInstead(ctx: CommandContext, w: Where, firstOpen: boolean): Promise<CardView | undefined> {
  const { chatType, chatId, threadId } = ctx.caller;
  const link = ctx.capabilities.privateLink;
  if (chatType === 'private' || !link || w.for !== undefined) return undefined;
  const channel = chatType === 'channel';
  if (!channel && (w.here || !firstOpen)) return undefined;
  if (threadId) await ctx.store.topics.add(ctx.caller.platform, chatId, threadId);
  const t = ctx.t;
  const here: Action[] = channel
    ? []
    : [{ label: t('settings.button.openHere'), command: 'settings', options: { here: true } }];
  return {
    kind: 'card',
    title: t('settings.title'),
    description: t(channel ? 'settings.openPrivateChannel' : 'settings.openPrivate'),
    links: [{ label: t('settings.button.openPrivate'), url: link(linkPayload(chatId, threadId)) }],
    actions: here,
    colour: 'brand',
  };
}

/**
 * The context of the chat the panel acts for: the group named by the deep link,
 * after the platform confirms the caller manages it; the caller's own otherwise.
 */
export async function actingFor(ctx: CommandContext, w: Where): Promise<CommandContext> {
  const target = w.for;
  if (target === undefined) return ctx;
  // Another spelling of the group's id (`-04901`) would pass the platform's check and be stored as another chat.
  if (!isCanonicalChatId(target) || (w.thread !== undefined && !isCanonicalThreadId(w.thread)))
    throw new UserError(ctx.t('settings.badLink'), '/settings');
  const ask = ctx.caller.canManageChat;
  if (ctx.caller.chatType !== 'private' || !ask || !(await ask(target)))
    throw new PermissionError(ctx.t('settings.notAdminThere'));
  if (w.thread !== undefined && !(await ctx.store.topics.has(ctx.caller.platform, target, w.thread)))
    throw new UserError(ctx.t('settings.unknownTopic'), '/settings');
  // Who asked stays; where they asked from does not.
  const { repliedTo: _r, member: _m, senderChatId: _s, threadId: _t, chatName: _n, ...caller } = ctx.caller;
  return {
    ...ctx,
    caller: {
      ...caller,
      chatId: target,
      ...(w.thread ? { threadId: w.thread } : {}),
      chatType: 'group',
      serverId: target,
      canManage: () => ask(target),
    },
  };
}

/** Every button of a panel acting for another chat says which one, so each press acts there again. */
export function keepWhere(view: CardView, w: Where): CardView {
  if (w.for === undefined) return view;
  const where = { for: w.for, ...(w.thread ? { thread: w.thread } : {}) };
  return { ...view, actions: (view.actions ?? []).map((a) => ({ ...a, options: { ...a.options, ...where } })) };
}
