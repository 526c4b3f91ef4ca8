import type { Command } from '../src/core/command.ts';
import { PermissionError, UserError } from '../src/core/errors.ts';
import { SETTING_OPTIONS } from '../src/alerts/settings.ts';
import { isSlug } from '../src/store/web.ts';

const EXAMPLE = '/web on';

// The settings panel turns the page on and off with these same options (alerts/settings.ts).
const options = SETTING_OPTIONS.web;

/** The community's public page: /web on [name], /web off, /web (the link). The page is the chat's, never a topic's. */
export default {
  name: 'web',
  options,
  chatSettings: true,
  examples: [EXAMPLE, '/web on alpha-club', '/web', '/web off'],
  async run({ action, slug }, ctx) {
    const t = ctx.t;
    const base = ctx.webUrl?.();
    // Not an error of the caller's: the operator chose to serve no pages (a plain answer, as /web's status is).
    if (base === undefined) return { kind: 'text', text: t('web.notServed') };
    const { platform, chatId } = ctx.caller;
    const link = (s: string) => `${base}/c/${s}`;
    if (action === undefined) {
      const page = await ctx.store.web.ofChat(platform, chatId);
      return { kind: 'text', text: page ? t('web.status', { url: link(page.slug) }) : t('web.statusOff') };
    }
    // As /subscribe's: the people who may change the chat's settings.
    if (!(await ctx.caller.canManage())) throw new PermissionError(t('web.adminsOnly'));
    if (action === 'off') {
      const gone = await ctx.store.web.close(platform, chatId);
      return { kind: 'text', text: gone ? t('web.off', { url: link(gone) }) : t('web.offNone') };
    }
    const wanted = slug?.trim().toLowerCase();
    if (wanted !== undefined && !isSlug(wanted))
      throw new UserError(t('web.slugBad', { example: 'alpha-club' }), '/web on alpha-club');
    const opened = await ctx.store.web.open(platform, chatId, wanted, ctx.now(), ctx.caller.chatName);
    if ('taken' in opened) throw new UserError(t('web.slugTaken', { slug: wanted ?? '' }), EXAMPLE);
    return { kind: 'text', text: t('web.on', { url: link(opened.page.slug) }) };
  },
} satisfies Command<typeof options>;
