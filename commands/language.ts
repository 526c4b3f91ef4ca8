import type { Command } from '../src/core/command.ts';
import { PermissionError, UserError } from '../src/core/errors.ts';
import { SETTING_OPTIONS } from '../src/alerts/settings.ts';
import { CATALOGUES, LOCALES, negotiate, pickLocale, translator, type Locale } from '../src/i18n/index.ts';
import type { Span } from '../src/domain/view.ts';

const options = SETTING_OPTIONS.language;

const nameOf = (l: Locale): string => CATALOGUES[l].language.name;

/** "en English · zh 简体中文 · …": each language under its own name, so a reader finds theirs. */
function choices(): Span[] {
  return LOCALES.flatMap((l, i): Span[] => [...(i ? [' · '] : []), { code: l }, ` ${nameOf(l)}`]);
}

export default {
  name: 'language',
  options,
  examples: ['/language', '/language ru', '/language auto'],
  async run({ code }, ctx) {
    const { platform, chatId, threadId } = ctx.caller;
    const t = ctx.t;
    if (!code) {
      const chosen = await ctx.store.languages.get(platform, chatId, threadId);
      const line = chosen
        ? t('language.current', { language: nameOf(chosen) })
        : t('language.followsCaller', { language: nameOf(ctx.locale) });
      return { kind: 'text', text: [line, `\n\n${t('language.choose')}\n`, ...choices()] };
    }
    if (!(await ctx.caller.canManage())) {
      throw new PermissionError(t(platform === 'discord' ? 'language.adminsOnlyChannel' : 'language.adminsOnlyGroup'));
    }
    if (code.trim().toLowerCase() === 'auto') {
      await ctx.store.languages.clear(platform, chatId, threadId);
      // A topic without its own language speaks its chat's, when the chat chose one.
      const chat = threadId ? await ctx.store.languages.get(platform, chatId) : undefined;
      if (chat) return { kind: 'text', text: translator(chat)('language.followsChat', { language: nameOf(chat) }) };
      const own = pickLocale(ctx.caller.locale);
      return { kind: 'text', text: translator(own)('language.cleared', { language: nameOf(own) }) };
    }
    const locale = negotiate(code);
    if (!locale) throw new UserError(t('language.unknown', { code, codes: LOCALES.join(', ') }), '/language en');
    await ctx.store.languages.set(platform, chatId, locale, threadId);
    // The confirmation is already in the new language: the clearest sign it worked.
    return { kind: 'text', text: translator(locale)('language.set') };
  },
} satisfies Command<typeof options>;
