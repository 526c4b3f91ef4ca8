/**
 * A rendered message (views/render/telegram.ts) onto Telegram: as a new
 * message (text, or a photo with its caption and maybe the text after it), or
 * in place of an earlier one when a button is pressed.
 */
import { GrammyError, InputFile, type Api } from 'grammy';
import type { Logger } from 'pino';
import { CAPTION_MAX, type TelegramMessage } from '../../views/render/telegram.ts';
import { isNotModified } from './transport.ts';
import { TtlCache } from '../../api/cache.ts';

export interface SendOptions {
  /** Answer this message; sent anyway, unthreaded, when it was deleted meanwhile. */
  readonly replyTo?: number | undefined;
  /**
   * The forum topic it goes to (transport.ts topicOf); absent: the chat, or General.
   * Named even on a reply: a reply whose message was deleted would otherwise land in General.
   */
  readonly threadId?: string | undefined;
}

/** Sends `m`; returns the id of the message that carries the buttons (the last one sent). */
export async function sendRendered(
  api: Api,
  chatId: number | string,
  m: TelegramMessage,
  log: Logger,
  o: SendOptions = {},
): Promise<number> {
  const reply =
    o.replyTo === undefined ? {} : { reply_parameters: { message_id: o.replyTo, allow_sending_without_reply: true } };
  const thread = o.threadId ? { message_thread_id: Number(o.threadId) } : {};
  const markup = m.reply_markup ? { reply_markup: m.reply_markup } : {};
  if (!m.photo) {
    const sent = await api.sendMessage(chatId, m.text, {
      parse_mode: 'HTML',
      link_preview_options: m.link_preview_options,
      ...markup,
      ...reply,
      ...thread,
    });
    return sent.message_id;
  }
  const photo = await api.sendPhoto(chatId, new InputFile(m.photo.data, m.photo.name), {
    ...(m.caption ? { caption: m.caption, parse_mode: 'HTML' as const } : {}),
    ...(m.textAfterPhoto ? {} : markup),
    ...reply,
    ...thread,
  });
  if (!m.textAfterPhoto) return photo.message_id;
  try {
    const text = await api.sendMessage(chatId, m.text, {
      parse_mode: 'HTML',
      link_preview_options: m.link_preview_options,
      ...markup,
      ...thread,
    });
    rememberPhoto(chatId, text.message_id, photo.message_id);
    return text.message_id;
  } catch (err) {
    // The picture and its title are posted: failing the whole send now would make a retry post them twice.
    log.warn({ err }, 'telegram: text after a photo was not sent');
    return photo.message_id;
  }
}

/**
 * Text messages that carry a picture's buttons -> that picture's message id, so a
 * button press can update both. In memory and bounded: after a restart, or a week
 * on, an old page only updates its text. One per process, not per Api: alerts go
 * out through their own Api (index.ts senderApi), their buttons come back through the bot's.
 */
const photos = new TtlCache<number>(5_000);
const PHOTOS_TTL_MS = 7 * 24 * 3600_000;

function rememberPhoto(chatId: number | string, textId: number, photoId: number): void {
  photos.set(`${chatId}:${textId}`, photoId, PHOTOS_TTL_MS);
}

/** Visible characters of our renderer's HTML, as Telegram counts them. */
export function visibleLength(html: string): number {
  return html.replace(/<[^<>]*>/g, '').replace(/&(?:lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/gi, '_').length;
}

/**
 * Replaces the message a button was pressed on. A text message cannot become a
 * photo: it keeps its place and shows the (complete) text. A photo message
 * takes the new picture, or the text as its caption when there is no picture
 * and it fits; otherwise the answer goes out as a new message.
 */
export async function editRendered(
  api: Api,
  chatId: number,
  messageId: number,
  wasPhoto: boolean,
  m: TelegramMessage,
  log: Logger,
  /** Where the answer goes when the message cannot be edited (its topic). */
  o: SendOptions = {},
): Promise<void> {
  const markup = m.reply_markup ? { reply_markup: m.reply_markup } : {};
  try {
    const photoId = photos.get(`${chatId}:${messageId}`);
    if (!wasPhoto && photoId !== undefined && m.photo) {
      // A picture with its text in the next message (too long for a caption): the buttons sit on
      // the text, and both change together, so the chart never shows another page than the table.
      const media = {
        type: 'photo' as const,
        media: new InputFile(m.photo.data, m.photo.name),
        ...(m.caption ? { caption: m.caption, parse_mode: 'HTML' as const } : {}),
      };
      await api.editMessageMedia(chatId, photoId, media).catch((err: unknown) => {
        if (!isNotModified(err)) log.debug({ err }, 'telegram: companion picture not updated');
      });
      await api.editMessageText(chatId, messageId, m.text, {
        parse_mode: 'HTML',
        link_preview_options: m.link_preview_options,
        ...markup,
      });
      return;
    }
    if (!wasPhoto) {
      await api.editMessageText(chatId, messageId, m.text, {
        parse_mode: 'HTML',
        link_preview_options: m.link_preview_options,
        ...markup,
      });
      return;
    }
    if (m.photo) {
      const media = {
        type: 'photo' as const,
        media: new InputFile(m.photo.data, m.photo.name),
        ...(m.caption ? { caption: m.caption, parse_mode: 'HTML' as const } : {}),
      };
      await api.editMessageMedia(chatId, messageId, media, m.textAfterPhoto ? {} : markup);
      if (m.textAfterPhoto)
        await api.sendMessage(chatId, m.text, {
          parse_mode: 'HTML',
          link_preview_options: m.link_preview_options,
          ...markup,
          ...(o.threadId ? { message_thread_id: Number(o.threadId) } : {}),
        });
      return;
    }
    if (visibleLength(m.text) <= CAPTION_MAX) {
      await api.editMessageCaption(chatId, messageId, { caption: m.text, parse_mode: 'HTML', ...markup });
      return;
    }
  } catch (err) {
    if (isNotModified(err)) return;
    // Only when the message cannot be edited (too old, deleted) does the answer go out as a new
    // one; after a 429 or a network error the edit may well have landed, and a copy would repeat it.
    if (
      !(
        err instanceof GrammyError &&
        err.error_code === 400 &&
        /can't be edited|not found|MESSAGE_ID_INVALID/i.test(err.description)
      )
    )
      throw err;
    log.debug({ err }, 'telegram: edit failed; sending a new message');
  }
  await sendRendered(api, chatId, m, log, o);
}
