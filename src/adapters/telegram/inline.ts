/**
 * Inline mode (`@bot <query>` in any chat; BotFather /setinline turns it on):
 * up to 10 articles, each the compact card as the message it posts. No
 * buttons (a press on an inline message carries no chat to answer in) and no
 * thumbnails (the bot never fetches remote images; Telegram would show the
 * upstream's icon URL unchecked).
 */
import { createHash } from 'node:crypto';
import type { Bot } from 'grammy';
import type { InlineQueryResultArticle } from 'grammy/types';
import type { Logger } from 'pino';
import type { KolClient } from '../../api/index.ts';
import { CHAIN_LABEL } from '../../domain/chains.ts';
import { createRateLimiter } from '../../core/ratelimit.ts';
import { inlineLookup, type InlineFound } from '../../core/inline.ts';
import { pickLocale, translator, type T } from '../../i18n/index.ts';
import { fmt } from '../../views/cards/lang.ts';
import { ticker } from '../../views/cards/common.ts';
import { compactCards } from '../../views/cards/tokenCompact.ts';
import type { View } from '../../domain/view.ts';
import { toTelegramHtml } from '../../views/render/telegram.ts';

/** Telegram may show the same answer to everyone for this long. */
export const INLINE_CACHE_S = 30;
/** Well inside Telegram's wait for an inline answer (about 10 s). */
const INLINE_BUDGET_MS = 4_000;

/** A result id: 1-64 bytes, stable per token so Telegram's cache and the client agree. */
function resultId(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}

function article(f: InlineFound, t: T): InlineQueryResultArticle {
  const { compact, pct, score, usd } = fmt(t);
  const view: View =
    f.kind === 'token'
      ? { ...compactCards([f.token], t), actions: [] }
      : {
          kind: 'text',
          text: [
            { b: `@${f.kol.kol}` },
            ` · ${f.kol.display_name}\n${t('lookup.inlineKolLine', { score: score(f.kol.score_v2), smart: compact(f.kol.sm_follower), win: pct(f.kol.winrate, 'fraction'), tokens: f.kol.total_token })}`,
            `\n${t('lookup.inlineFullCard', { command: `/kol @${f.kol.kol}` })}`,
          ],
        };
  const m = toTelegramHtml(view);
  const content = { message_text: m.text, parse_mode: 'HTML' as const, link_preview_options: { is_disabled: true } };
  if (f.kind === 'kol') {
    return {
      type: 'article',
      id: resultId(`kol:${f.kol.kol}`),
      title: `KOL @${f.kol.kol}`,
      description: `${f.kol.display_name} · ${t('lookup.inlineScore', { score: score(f.kol.score_v2) })}`,
      input_message_content: content,
    };
  }
  const { chain, item } = f.token;
  return {
    type: 'article',
    id: resultId(`${chain}:${item.token.address}`),
    title: `${ticker(item.token.symbol, item.token.name)} · ${item.token.name || item.token.symbol}`,
    description: `${CHAIN_LABEL[chain]} · ${t('compact.line', { mc: usd(item.marketcap), h24: pct(item.changes.h24, 'percent', { sign: true }) })}`,
    input_message_content: content,
  };
}

/**
 * Inline queries per user per window. Telegram sends one per pause in typing and a
 * name search asks every chain, so a fast typist is held to this; past it the
 * answer is empty and personal (not cached for others).
 */
export const INLINE_LIMIT = { count: 20, windowMs: 10_000 };

export function installInline(bot: Bot, d: { api: KolClient; log: Logger; now?: () => number }): void {
  const limiter = createRateLimiter(INLINE_LIMIT.count, INLINE_LIMIT.windowMs);
  const now = d.now ?? Date.now;
  bot.on('inline_query', async (ctx) => {
    const query = ctx.inlineQuery.query;
    const locale = pickLocale(ctx.inlineQuery.from.language_code);
    const t = translator(locale);
    // Telegram caches an answer for everyone who types the same query: one in another language is kept per user.
    const cache = { cache_time: INLINE_CACHE_S, ...(locale === 'en' ? {} : { is_personal: true }) };
    if (limiter.take(String(ctx.inlineQuery.from.id), now()).waitMs > 0) {
      await ctx.answerInlineQuery([], { cache_time: 0, is_personal: true });
      return;
    }
    if (!query.trim()) {
      await ctx.answerInlineQuery([], {
        ...cache,
        button: { text: t('lookup.inlineHint'), start_parameter: 'inline' },
      });
      return;
    }
    let found: InlineFound[] = [];
    try {
      found = await inlineLookup(d.api, query, {
        signal: AbortSignal.timeout(INLINE_BUDGET_MS + 500),
        budgetMs: INLINE_BUDGET_MS,
      });
    } catch (err) {
      d.log.warn({ err }, 'telegram: inline lookup failed');
    }
    if (!found.length) {
      await ctx.answerInlineQuery([], {
        ...cache,
        button: { text: t('lookup.inlineNothing'), start_parameter: 'inline' },
      });
      return;
    }
    await ctx.answerInlineQuery(
      found.map((f) => article(f, t)),
      cache,
    );
  });
}
