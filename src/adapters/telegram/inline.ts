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
import { createLookupBudget, senderKey, type LookupBudget } from '../../core/budget.ts';
import { planInline, type InlineFound } from '../../core/inline.ts';
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

/** An outage answer is kept this long, for the asker only: the next try may well work. */
export const INLINE_OUTAGE_CACHE_S = 5;

/**
 * Inline queries draw on the sender's lookup budget, charged per upstream
 * request before the lookup runs (Telegram sends one query per pause in typing,
 * and a name search asks every chain). Past it the answer says so, to that user
 * alone and uncached.
 */
export function installInline(
  bot: Bot,
  d: { api: KolClient; log: Logger; lookups?: LookupBudget; now?: () => number },
): void {
  const lookups = d.lookups ?? createLookupBudget(d.now ? { now: d.now } : {});
  bot.on('inline_query', async (ctx) => {
    const query = ctx.inlineQuery.query;
    const locale = pickLocale(ctx.inlineQuery.from.language_code);
    const t = translator(locale);
    // Telegram caches an answer for everyone who types the same query: one in another language is kept per user.
    const cache = { cache_time: INLINE_CACHE_S, ...(locale === 'en' ? {} : { is_personal: true }) };
    const plan = planInline(query);
    if (!plan) {
      const hint = query.trim() ? 'lookup.inlineNothing' : 'lookup.inlineHint';
      await ctx.answerInlineQuery([], { ...cache, button: { text: t(hint), start_parameter: 'inline' } });
      return;
    }
    if (lookups.spend(senderKey('telegram', String(ctx.inlineQuery.from.id)), plan.requests).waitMs > 0) {
      await ctx.answerInlineQuery([], {
        cache_time: 0,
        is_personal: true,
        button: { text: t('lookup.inlineBusy'), start_parameter: 'inline' },
      });
      return;
    }
    let found: InlineFound[];
    try {
      found = await plan.run(d.api, {
        signal: AbortSignal.timeout(INLINE_BUDGET_MS + 500),
        budgetMs: INLINE_BUDGET_MS,
      });
    } catch (err) {
      // An outage is not "nothing found": said as such, briefly, and to this user alone.
      d.log.warn({ err }, 'telegram: inline lookup failed');
      await ctx.answerInlineQuery([], {
        cache_time: INLINE_OUTAGE_CACHE_S,
        is_personal: true,
        button: { text: t('lookup.inlineUnavailable'), start_parameter: 'inline' },
      });
      return;
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
