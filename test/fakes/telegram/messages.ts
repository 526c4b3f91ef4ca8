// Sending, editing and deleting messages, with the checks Telegram makes.
import { isDeepStrictEqual } from 'node:util';
import { badRequest, forbidden, NOT_MODIFIED } from './errors.ts';
import { intParam, requireChat, toMessage, unixNow, type Handler, type MethodContext } from './context.ts';
import { formatText, validatePhoto, validateReplyMarkup, type Formatted } from './validate.ts';
import type { Chat, MessageVersion, PhotoInfo, ReplyMarkup, SentMessage } from './types.ts';
import { placeSend } from './topics.ts';

let fileCounter = 0;

/** Telegram refuses sends where the bot is no longer (or not enough of) a member. */
function checkCanSend(ctx: MethodContext, chat: Chat, what: string): void {
  if (chat.type === 'private') return;
  const status = ctx.state.statusOf(chat.id, ctx.state.bot.id);
  if (chat.type === 'channel') {
    // Only a channel's admins post there, and only with the right to.
    if (status === 'kicked') throw forbidden('bot was kicked from the channel chat');
    if (status === 'left') throw forbidden('bot is not a member of the channel chat');
    const mayPost = ctx.state.rights.get(`${chat.id}:${ctx.state.bot.id}`)?.can_post_messages !== false;
    if (status === 'creator' || (status === 'administrator' && mayPost)) return;
    throw badRequest('need administrator rights in the channel chat');
  }
  const kind = chat.type === 'supergroup' ? 'supergroup' : 'group';
  if (status === 'kicked') throw forbidden(`bot was kicked from the ${kind} chat`);
  if (status === 'left') throw forbidden(`bot is not a member of the ${kind} chat`);
  if (status === 'restricted') throw badRequest(`not enough rights to send ${what} to the chat`);
}

/** A photo parameter: an attach:// upload, a direct upload, a known file_id or a URL. */
function resolvePhoto(ctx: MethodContext, value: unknown, field: string): PhotoInfo {
  const ref = typeof value === 'string' ? value : undefined;
  const upload = ref?.startsWith('attach://')
    ? ctx.files.get(ref.slice('attach://'.length))
    : ref === undefined
      ? ctx.files.get(field)
      : undefined;
  if (ref?.startsWith('attach://') && !upload) throw badRequest(`can't find attached file "${ref}"`);
  if (upload) {
    const { width, height } = validatePhoto(upload.data);
    const photo: PhotoInfo = {
      file_id: `fakephoto${++fileCounter}`,
      source: 'upload',
      width,
      height,
      size: upload.data.length,
      data: upload.data,
    };
    if (upload.filename !== undefined) photo.filename = upload.filename;
    ctx.state.photos.set(photo.file_id, photo);
    return photo;
  }
  if (ref === undefined || ref === '') throw badRequest(`there is no ${field} in the request`);
  const known = ctx.state.photos.get(ref);
  if (known) return { ...known, source: 'file_id' };
  if (/^https?:\/\/./.test(ref)) {
    // The fake cannot fetch the URL, so the photo has no known size.
    const photo: PhotoInfo = {
      file_id: `fakephoto${++fileCounter}`,
      source: 'url',
      url: ref,
      width: 0,
      height: 0,
      size: 0,
    };
    ctx.state.photos.set(photo.file_id, photo);
    return photo;
  }
  throw badRequest('wrong file identifier/HTTP URL specified');
}

function replyTarget(ctx: MethodContext, chat: Chat): number | undefined {
  const rp = ctx.params.reply_parameters as { message_id?: unknown; allow_sending_without_reply?: unknown } | undefined;
  const id = rp?.message_id ?? ctx.params.reply_to_message_id;
  if (id === undefined) return undefined;
  const n = Number(id);
  const exists = ctx.state.incomingMessage(chat.id, n) ?? ctx.state.sentMessage(chat.id, n);
  const lenient = rp?.allow_sending_without_reply === true || ctx.params.allow_sending_without_reply === true;
  if (!exists && !lenient) throw badRequest('message to be replied not found');
  return exists ? n : undefined;
}

function payloadOf(ctx: MethodContext, photo?: PhotoInfo): Record<string, unknown> {
  const payload = { ...ctx.params };
  if (photo) payload.photo = { ...photo, data: undefined };
  return payload;
}

function send(
  ctx: MethodContext,
  method: string,
  chat: Chat,
  f: Formatted,
  photo: PhotoInfo | undefined,
  markup: ReplyMarkup | undefined,
): unknown {
  const replyTo = replyTarget(ctx, chat);
  const target =
    replyTo === undefined
      ? undefined
      : (ctx.state.incomingMessage(chat.id, replyTo) ?? ctx.state.sentMessage(chat.id, replyTo));
  const place = placeSend(ctx, chat, target);
  const message: SentMessage = {
    method,
    time: ctx.now(),
    text: f.text,
    html: f.html,
    parse_mode: f.parse_mode,
    entities: f.entities,
    reply_markup: markup,
    photo,
    message_id: ctx.state.nextMessageId(chat.id),
    chat_id: chat.id,
    isCaption: photo !== undefined,
    reply_to_message_id: replyTo,
    message_thread_id: place.threadId,
    isTopic: place.isTopic,
    payload: payloadOf(ctx, photo),
    date: unixNow(),
    deleted: false,
    edits: [],
  };
  ctx.state.recordSent(message);
  return toMessage(ctx.state, message);
}

const sendMessage: Handler = (ctx) => {
  const chat = requireChat(ctx);
  checkCanSend(ctx, chat, 'text messages');
  const f = formatText(ctx.params.text, ctx.params.parse_mode, ctx.params.entities, 'text');
  return send(ctx, 'sendMessage', chat, f, undefined, validateReplyMarkup(ctx.params.reply_markup));
};

const sendPhoto: Handler = (ctx) => {
  const chat = requireChat(ctx);
  checkCanSend(ctx, chat, 'photos');
  const f = formatText(ctx.params.caption, ctx.params.parse_mode, ctx.params.caption_entities, 'caption');
  const markup = validateReplyMarkup(ctx.params.reply_markup);
  return send(ctx, 'sendPhoto', chat, f, resolvePhoto(ctx, ctx.params.photo, 'photo'), markup);
};

/** The bot message an edit targets, with the errors Telegram gives for other targets. */
function editTarget(ctx: MethodContext): SentMessage {
  if (ctx.params.inline_message_id !== undefined) throw badRequest('MESSAGE_ID_INVALID');
  const chat = requireChat(ctx);
  const id = intParam(ctx.params, 'message_id');
  const message = ctx.state.sentMessage(chat.id, id);
  if (message && !message.deleted) return message;
  if (ctx.state.incomingMessage(chat.id, id)) throw badRequest("message can't be edited");
  throw badRequest('message to edit not found');
}

function applyEdit(
  ctx: MethodContext,
  m: SentMessage,
  method: string,
  next: Omit<MessageVersion, 'method' | 'time'>,
): unknown {
  const same =
    next.text === m.text &&
    isDeepStrictEqual(next.entities, m.entities) &&
    isDeepStrictEqual(next.reply_markup ?? null, m.reply_markup ?? null) &&
    next.photo?.file_id === m.photo?.file_id;
  if (same) throw badRequest(NOT_MODIFIED);
  const version: MessageVersion = { ...next, method, time: ctx.now() };
  // The message keeps the method and time of its send; its content follows the edit.
  Object.assign(m, next);
  m.edits.push(version);
  ctx.state.emit('edited', m);
  return toMessage(ctx.state, m);
}

const versionOf = (m: SentMessage): Omit<MessageVersion, 'method' | 'time'> => ({
  text: m.text,
  html: m.html,
  parse_mode: m.parse_mode,
  entities: m.entities,
  reply_markup: m.reply_markup,
  photo: m.photo,
});

const editMessageText: Handler = (ctx) => {
  const m = editTarget(ctx);
  if (m.isCaption) throw badRequest('there is no text in the message to edit');
  const f = formatText(ctx.params.text, ctx.params.parse_mode, ctx.params.entities, 'text');
  // Leaving reply_markup out removes the keyboard, as on Telegram.
  const markup = validateReplyMarkup(ctx.params.reply_markup);
  return applyEdit(ctx, m, 'editMessageText', { ...versionOf(m), ...f, reply_markup: markup });
};

const editMessageCaption: Handler = (ctx) => {
  const m = editTarget(ctx);
  if (!m.isCaption) throw badRequest('there is no caption in the message to edit');
  const f = formatText(ctx.params.caption, ctx.params.parse_mode, ctx.params.caption_entities, 'caption');
  const markup = validateReplyMarkup(ctx.params.reply_markup);
  return applyEdit(ctx, m, 'editMessageCaption', { ...versionOf(m), ...f, reply_markup: markup });
};

const editMessageMedia: Handler = (ctx) => {
  const m = editTarget(ctx);
  if (!m.isCaption) throw badRequest('there is no media in the message to edit');
  const media = ctx.params.media as
    | { type?: unknown; media?: unknown; caption?: unknown; parse_mode?: unknown; caption_entities?: unknown }
    | undefined;
  if (typeof media !== 'object' || media === null) throw badRequest("can't parse InputMedia JSON object");
  if (media.type !== 'photo') throw badRequest('the fake supports InputMediaPhoto only');
  const photo = resolvePhoto(ctx, media.media, 'media');
  const f = formatText(media.caption, media.parse_mode, media.caption_entities, 'caption');
  const markup = validateReplyMarkup(ctx.params.reply_markup);
  return applyEdit(ctx, m, 'editMessageMedia', { ...f, photo, reply_markup: markup });
};

const editMessageReplyMarkup: Handler = (ctx) => {
  const m = editTarget(ctx);
  const markup = validateReplyMarkup(ctx.params.reply_markup);
  return applyEdit(ctx, m, 'editMessageReplyMarkup', { ...versionOf(m), reply_markup: markup });
};

const deleteMessage: Handler = (ctx) => {
  const chat = requireChat(ctx);
  const id = intParam(ctx.params, 'message_id');
  const mine = ctx.state.sentMessage(chat.id, id);
  if (mine && !mine.deleted) {
    mine.deleted = true;
    return true;
  }
  if (ctx.state.incomingMessage(chat.id, id)) {
    const status = ctx.state.statusOf(chat.id, ctx.state.bot.id);
    if (chat.type !== 'private' && status !== 'administrator' && status !== 'creator')
      throw badRequest("message can't be deleted");
    return true;
  }
  throw badRequest('message to delete not found');
};

export const messageMethods: Record<string, Handler> = {
  sendMessage,
  sendPhoto,
  editMessageText,
  editMessageCaption,
  editMessageMedia,
  editMessageReplyMarkup,
  deleteMessage,
};

/** Methods that post a new message, which is what Telegram's flood limits count. */
export const SEND_METHODS = new Set(['sendmessage', 'sendphoto']);
