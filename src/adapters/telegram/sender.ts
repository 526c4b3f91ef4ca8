/**
 * Alert delivery to Telegram. Pacing happens in the transport before each
 * request; this maps what Telegram answered onto delivery's SendResult. It
 * never retries by itself: delivery decides, and after a network error that
 * may have reached Telegram it must not resend, because the Bot API has no
 * idempotency key and a resend could post the alert twice.
 */
import { Api, GrammyError, HttpError, type ApiClientOptions } from 'grammy';
import type { Logger } from 'pino';
import type { Sender, SendResult } from '../../alerts/delivery.ts';
import type { View } from '../../domain/view.ts';
import { type TelegramMessage, toTelegramHtml } from '../../views/render/telegram.ts';
import { codeOf, neverConnected } from './connections.ts';
import { onWire, PacedError, type Pacer } from './pacer.ts';
import { sendRendered } from './send.ts';
import {
  chatParam,
  isChatGone,
  isNotModified,
  migrateToOf,
  pacingTransformer,
  retryAfterOf,
  topicRefusal,
} from './transport.ts';

export interface TelegramSenderOptions {
  /** A grammY Api whose transport paces sends without retrying 429s. */
  readonly api: Api;
  /** The same, but a send the free bot-wide window would make wait goes out paid: used for new alerts only (Posting.mayPay). */
  readonly paidApi?: Api;
  readonly log: Logger;
  /** Real milliseconds per Telegram second (1000 unless the clock is scaled in tests). */
  readonly secondMs: number;
  /**
   * The pacer behind `api`: its limits, so delivery can merge a burst a chat cannot take in time, and
   * when a chat frees, so a destination at its limit is scheduled rather than waited for.
   */
  readonly pacer?: Pick<Pacer, 'limits' | 'readyIn'>;
}

/**
 * The alert sender's transports, paced by the bot's one pacer: a 429, or a chat whose own limit is
 * further away than one send interval, goes back to delivery. With paid broadcasts on, a second
 * one whose sends may pay, for new alerts only.
 */
export function deliveryApis(
  token: string,
  client: ApiClientOptions,
  pacer: Pacer,
): Pick<TelegramSenderOptions, 'api' | 'paidApi' | 'secondMs'> {
  const api = (paid: boolean) => {
    const a = new Api(token, { ...client, timeoutSeconds: 30 });
    a.config.use(pacingTransformer(pacer, { retries: 0, maxWaitMs: 0, pace: { maxChatWaitMs: pacer.secondMs, paid } }));
    return a;
  };
  return { api: api(false), ...(pacer.paidPolicy ? { paidApi: api(true) } : {}), secondMs: pacer.secondMs };
}

export function createTelegramSender(o: TelegramSenderOptions): Sender {
  return {
    platform: 'telegram',
    // Groups have negative ids (Telegram's rule, as the pacer applies it).
    perMinute: (chatId) =>
      chatId.startsWith('-') ? (o.pacer?.limits.perGroupPerMinute ?? 20) : (o.pacer?.limits.perChatPerMinute ?? 60),
    // Within one send interval the pacer simply waits: scheduling a destination for a second is not worth a pass.
    readyIn: (chatId) => {
      const wait = o.pacer?.readyIn(chatId) ?? 0;
      return wait > o.secondMs ? wait : 0;
    },
    marksOnWire: true,
    async send(chatId, view, _nonce, threadId, wire, how): Promise<SendResult> {
      let message: TelegramMessage;
      try {
        message = toTelegramHtml(view);
      } catch (err) {
        // A view Telegram cannot carry will not get better on retry.
        o.log.error({ err }, 'telegram: alert could not be rendered');
        return { kind: 'rejected', reason: `not sendable: ${(err as Error).message}` };
      }
      // A picture with its text after it is two sends: both must fit the chat's limit, or neither goes.
      const wait = o.pacer?.readyIn(chatId, message.photo && message.textAfterPhoto ? 2 : 1) ?? 0;
      if (wait > o.secondMs) return { kind: 'paced', afterMs: wait };
      try {
        const api = how?.mayPay && o.paidApi ? o.paidApi : o.api;
        const go = () => sendRendered(api, chatParam(chatId), message, o.log, { threadId });
        const id = await (wire ? onWire.run(wire, go) : go());
        return { kind: 'sent', messageId: String(id) };
      } catch (err) {
        const refused = topicRefusal(err);
        if (refused && threadId) return topicGone(o, chatId, refused);
        // A forum whose General topic admins closed: the chat itself takes no alerts from the bot.
        if (refused === 'closed') return { kind: 'gone', reason: 'the General topic was closed' };
        const result = toSendResult(err, o.secondMs);
        if (result.kind !== 'sent') o.log.debug({ chatId, result: result.kind, err }, 'telegram: alert not sent');
        return result;
      }
    },
    async edit(chatId: string, messageId: string, view: View): Promise<SendResult> {
      try {
        const m = toTelegramHtml(view);
        const markup = m.reply_markup ? { reply_markup: m.reply_markup } : {};
        try {
          await o.api.editMessageText(chatParam(chatId), Number(messageId), m.text, {
            parse_mode: 'HTML',
            link_preview_options: m.link_preview_options,
            ...markup,
          });
        } catch (err) {
          // An alert sent as a picture carries its text as the caption: Telegram edits that with another method.
          if (!(err instanceof GrammyError && /there is no text in the message to edit/i.test(err.description)))
            throw err;
          await o.api.editMessageCaption(chatParam(chatId), Number(messageId), {
            caption: m.text,
            parse_mode: 'HTML',
            ...markup,
          });
        }
        return { kind: 'sent', messageId };
      } catch (err) {
        if (isNotModified(err)) return { kind: 'sent', messageId };
        // An edit changes nothing twice: unlike a send, it is safe to retry after a network error.
        if (err instanceof HttpError) return { kind: 'retry', afterMs: 5 * o.secondMs, reason: err.message };
        return toSendResult(err, o.secondMs);
      }
    },
  };
}

/**
 * A topic that refused a send: closed, or "not found", which is a deleted topic in a chat
 * that is still a forum, or the group having turned topics off (getChat says which). Then
 * the chat itself takes the alerts.
 */
async function topicGone(
  o: TelegramSenderOptions,
  chatId: string,
  refused: 'closed' | 'not found',
): Promise<SendResult> {
  if (refused === 'closed') return { kind: 'gone', reason: 'the topic was closed' };
  try {
    const chat = await o.api.getChat(chatParam(chatId));
    if ('is_forum' in chat && chat.is_forum) return { kind: 'gone', reason: 'the topic was deleted' };
    return { kind: 'gone', reason: 'the group turned topics off', toChat: true };
  } catch (err) {
    return toSendResult(err, o.secondMs);
  }
}

/** What a failed send means for delivery. */
function toSendResult(err: unknown, secondMs: number): SendResult {
  if (err instanceof PacedError) return { kind: 'paced', afterMs: err.readyInMs };
  if (err instanceof GrammyError) {
    const reason = `${err.error_code}: ${err.description}`;
    const after = retryAfterOf({ ok: false, error_code: err.error_code, parameters: err.parameters });
    // A flood wait is not a failure: delivery does not count it against the entry.
    if (after !== undefined) return { kind: 'retry', afterMs: after * secondMs, reason, rateLimited: true };
    const migrateTo = migrateToOf(err);
    if (migrateTo !== undefined)
      return { kind: 'gone', reason: 'group upgraded to a supergroup', migrateTo: String(migrateTo) };
    if (isChatGone(err)) return { kind: 'gone', reason: err.description.replace(/^(Forbidden|Bad Request): /, '') };
    // The Bot API's own trouble, or ours (401 token, 404 method): not the destination's fault, try later.
    if (err.error_code >= 500 || err.error_code === 401 || err.error_code === 404 || err.error_code === 409) {
      return { kind: 'retry', afterMs: 5 * secondMs, reason };
    }
    // Any other 400 refuses this message, not the chat: resending it would fail the same way.
    return { kind: 'rejected', reason: `refused: ${reason}` };
  }
  if (err instanceof HttpError) {
    // Nothing was connected, so nothing was posted. A connection that failed once the request was written
    // (connections.ts keeps that from being a connection the server had closed) may have posted it.
    const code = neverConnected(err);
    if (code) return { kind: 'retry', afterMs: 2 * secondMs, reason: `not connected (${code})` };
    // Why, in the reason: a reset, or grammY's own timeout (no code), tell an operator different things.
    const cause = codeOf(err) ?? (err.error instanceof Error ? err.error.message : undefined);
    return { kind: 'uncertain', reason: cause ? `${err.message} (${cause})` : err.message };
  }
  return { kind: 'uncertain', reason: err instanceof Error ? err.message : String(err) };
}
