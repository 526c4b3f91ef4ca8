// Inline mode: inline_query updates (only when inline mode is on, as BotFather's
// /setinline decides) and answerInlineQuery, validated the way the Bot API
// validates it: one answer per query, in time, at most 50 results with unique
// 1-64 byte ids, article titles, message text 1-4096 after parsing, a button
// whose start_parameter is 1-64 of [A-Za-z0-9_-].
import { badRequest } from './errors.ts';
import type { Handler } from './context.ts';
import { formatText, validateReplyMarkup } from './validate.ts';

/** Telegram drops an inline query the bot has not answered in about 10 seconds. */
export const INLINE_TTL_MS = 10_000;
export const MAX_RESULTS = 50;

export interface InlineAnswer {
  inline_query_id: string;
  results: InlineResult[];
  cache_time: number | undefined;
  is_personal: boolean;
  next_offset: string | undefined;
  button: { text: string; start_parameter?: string } | undefined;
  /** Fake milliseconds between the query and its answer. */
  afterMs: number;
}

export interface InlineResult {
  type: string;
  id: string;
  title?: string;
  description?: string;
  /** The parsed message the result posts (text without markup). */
  text: string;
  html: string | undefined;
  thumbnail_url?: string;
  reply_markup?: unknown;
}

export interface InlineState {
  queries: Map<string, { created: number; answered: boolean }>;
  answers: InlineAnswer[];
}

export const newInlineState = (): InlineState => ({ queries: new Map(), answers: [] });

function parseResults(raw: unknown): unknown[] {
  const v =
    typeof raw === 'string'
      ? (() => {
          try {
            return JSON.parse(raw) as unknown;
          } catch {
            throw badRequest("can't parse inline query results JSON object");
          }
        })()
      : raw;
  if (!Array.isArray(v)) throw badRequest('results must be an array');
  return v;
}

function result(raw: unknown, ids: Set<string>): InlineResult {
  if (!raw || typeof raw !== 'object') throw badRequest("can't parse InlineQueryResult JSON object");
  const r = raw as Record<string, unknown>;
  const id = typeof r.id === 'string' ? r.id : '';
  const bytes = Buffer.byteLength(id);
  if (bytes < 1 || bytes > 64) throw badRequest('RESULT_ID_INVALID');
  if (ids.has(id)) throw badRequest('RESULT_ID_DUPLICATE');
  ids.add(id);
  if (r.type !== 'article') throw badRequest(`the fake models article results only, got ${String(r.type)}`);
  if (typeof r.title !== 'string' || r.title.trim() === '') throw badRequest('RESULT_TITLE_EMPTY');
  const content = r.input_message_content as Record<string, unknown> | undefined;
  if (!content || typeof content !== 'object' || content.message_text === undefined) throw badRequest('MESSAGE_EMPTY');
  const f = formatText(content.message_text, content.parse_mode, content.entities, 'text');
  if (r.thumbnail_url !== undefined && (typeof r.thumbnail_url !== 'string' || !/^https?:\/\//.test(r.thumbnail_url)))
    throw badRequest('THUMBNAIL_URL_INVALID');
  validateReplyMarkup(r.reply_markup);
  return {
    type: 'article',
    id,
    title: r.title,
    text: f.text,
    html: f.html,
    ...(typeof r.description === 'string' ? { description: r.description } : {}),
    ...(typeof r.thumbnail_url === 'string' ? { thumbnail_url: r.thumbnail_url } : {}),
    ...(r.reply_markup !== undefined ? { reply_markup: r.reply_markup } : {}),
  };
}

export const answerInlineQuery: Handler = ({ state, params, now }) => {
  const id = typeof params.inline_query_id === 'string' ? params.inline_query_id : String(params.inline_query_id ?? '');
  const query = state.inline.queries.get(id);
  if (!query || query.answered || now() - query.created > INLINE_TTL_MS) {
    throw badRequest('query is too old and response timeout expired or query ID is invalid');
  }
  const raw = parseResults(params.results);
  if (raw.length > MAX_RESULTS) throw badRequest('RESULTS_TOO_MUCH');
  const ids = new Set<string>();
  const results = raw.map((r) => result(r, ids));
  const cache = params.cache_time;
  if (cache !== undefined && (!Number.isInteger(Number(cache)) || Number(cache) < 0))
    throw badRequest('cache_time must be a non-negative integer');
  let button: InlineAnswer['button'];
  if (params.button !== undefined) {
    const b = (typeof params.button === 'string' ? JSON.parse(params.button) : params.button) as Record<
      string,
      unknown
    >;
    if (typeof b.text !== 'string' || b.text.trim() === '') throw badRequest('BUTTON_TEXT_INVALID');
    if (b.web_app === undefined) {
      if (typeof b.start_parameter !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(b.start_parameter))
        throw badRequest('START_PARAM_INVALID');
    }
    button = { text: b.text, ...(typeof b.start_parameter === 'string' ? { start_parameter: b.start_parameter } : {}) };
  }
  query.answered = true;
  state.inline.answers.push({
    inline_query_id: id,
    results,
    cache_time: cache === undefined ? undefined : Number(cache),
    is_personal: params.is_personal === true,
    next_offset: typeof params.next_offset === 'string' ? params.next_offset : undefined,
    button,
    afterMs: now() - query.created,
  });
  state.emit('inline');
  return true;
};
