// Telegram's checks on what a bot sends: formatted text, inline keyboards,
// command lists and uploaded images, answering the errors the real API answers.
import { badRequest } from './errors.ts';
import { parseHtml, textLength } from './html.ts';
import type { BotCommand, MessageEntity, ReplyMarkup } from './types.ts';

export const MAX_TEXT = 4096;
export const MAX_CAPTION = 1024;

export interface Formatted {
  text: string;
  html: string | undefined;
  parse_mode: string | undefined;
  entities: MessageEntity[];
}

/** Parses text or a caption the way its parse_mode says and enforces its length. */
export function formatText(raw: unknown, parseMode: unknown, entities: unknown, kind: 'text' | 'caption'): Formatted {
  if (raw !== undefined && typeof raw !== 'string' && typeof raw !== 'number')
    throw badRequest(`${kind} must be a string`);
  const input = raw === undefined ? '' : String(raw);
  const mode = parseMode === undefined || parseMode === '' ? undefined : String(parseMode);
  let text = input;
  let parsed: MessageEntity[] = Array.isArray(entities) ? (entities as MessageEntity[]) : [];
  if (mode !== undefined) {
    const lower = mode.toLowerCase();
    if (lower === 'html') ({ text, entities: parsed } = parseHtml(input));
    // Markdown modes are accepted but not parsed: our bot speaks HTML, and the raw length is an upper bound.
    else if (lower !== 'markdownv2' && lower !== 'markdown') throw badRequest('unsupported parse_mode');
  }
  if (kind === 'text') {
    if (text.trim() === '') throw badRequest('message text is empty');
    if (textLength(text) > MAX_TEXT) throw badRequest('message is too long');
  } else if (textLength(text) > MAX_CAPTION) {
    throw badRequest('message caption is too long');
  }
  const isHtml = mode?.toLowerCase() === 'html';
  return { text, html: isHtml ? input : undefined, parse_mode: mode, entities: parsed };
}

const ACTIONS = [
  'callback_data',
  'url',
  'login_url',
  'switch_inline_query',
  'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat',
  'callback_game',
  'pay',
  'web_app',
  'copy_text',
];

export function validateReplyMarkup(markup: unknown): ReplyMarkup | undefined {
  if (markup === undefined || markup === null) return undefined;
  if (typeof markup !== 'object' || Array.isArray(markup))
    throw badRequest("can't parse reply keyboard markup JSON object");
  const m = markup as ReplyMarkup;
  if (m.force_reply !== undefined) return validateForceReply(m);
  if (m.inline_keyboard === undefined) return m;
  if (!Array.isArray(m.inline_keyboard) || m.inline_keyboard.some((row) => !Array.isArray(row))) {
    throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
  }
  for (const row of m.inline_keyboard) {
    for (const button of row) {
      if (typeof button !== 'object' || button === null || typeof button.text !== 'string') {
        throw badRequest('can\'t parse inline keyboard button: Field "text" must be of type String');
      }
      if (!ACTIONS.some((a) => button[a] !== undefined)) {
        throw badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
      }
      if (button.text.trim() === '') throw badRequest('BUTTON_TEXT_INVALID');
      if (button.callback_data !== undefined) {
        const bytes = Buffer.byteLength(String(button.callback_data), 'utf8');
        if (typeof button.callback_data !== 'string' || bytes < 1 || bytes > 64)
          throw badRequest('BUTTON_DATA_INVALID');
      }
      if (button.url !== undefined && !validButtonUrl(button.url)) throw badRequest('BUTTON_URL_INVALID');
    }
  }
  return m;
}

/** ForceReply: `force_reply` must be true; the field's placeholder 1-64 characters. */
function validateForceReply(m: ReplyMarkup): ReplyMarkup {
  if (m.force_reply !== true) throw badRequest("can't parse reply keyboard markup JSON object");
  const p = m.input_field_placeholder;
  if (p !== undefined && (typeof p !== 'string' || p.length < 1 || [...p].length > 64))
    throw badRequest('INPUT_FIELD_PLACEHOLDER_INVALID');
  if (m.inline_keyboard !== undefined) throw badRequest("can't parse reply keyboard markup JSON object");
  return m;
}

function validButtonUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    const u = new URL(url);
    return ['http:', 'https:', 'tg:', 'ton:'].includes(u.protocol) && (u.protocol === 'tg:' || u.hostname !== '');
  } catch {
    return false;
  }
}

export function validateCommands(commands: unknown): BotCommand[] {
  if (!Array.isArray(commands)) throw badRequest('field "commands" must be an Array');
  if (commands.length > 100) throw badRequest('BOT_COMMANDS_TOO_MUCH');
  return commands.map((c: unknown) => {
    const cmd = c as Partial<BotCommand> | null;
    const name = typeof cmd?.command === 'string' ? cmd.command.trim().replace(/^\//, '') : '';
    const description = typeof cmd?.description === 'string' ? cmd.description.trim() : '';
    if (name === '') throw badRequest('command must be non-empty');
    if (textLength(name) > 32) throw badRequest('command is too long');
    if (!/^[a-z0-9_]+$/.test(name)) throw badRequest('BOT_COMMAND_INVALID');
    if (description === '') throw badRequest('command description must be non-empty');
    if (textLength(description) > 256) throw badRequest('command description is too long');
    return { command: name, description };
  });
}

/** Width and height from the image header; undefined when it is no image Telegram would take. */
export function imageSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47) {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 10 && data.toString('latin1', 0, 4) === 'GIF8') {
    return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  }
  if (data.length >= 30 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') {
    const chunk = data.toString('latin1', 12, 16);
    if (chunk === 'VP8X') return { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
    if (chunk === 'VP8L') {
      const bits = data.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8 ') return { width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
    return undefined;
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) {
    let i = 2;
    while (i + 9 < data.length) {
      if (data[i] !== 0xff) return undefined;
      const marker = data[i + 1]!;
      const length = data.readUInt16BE(i + 2);
      const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isSof) return { width: data.readUInt16BE(i + 7), height: data.readUInt16BE(i + 5) };
      i += 2 + length;
    }
  }
  return undefined;
}

export function validatePhoto(data: Buffer): { width: number; height: number } {
  if (data.length === 0) throw badRequest('file must be non-empty');
  if (data.length > 10 * 1024 * 1024) throw badRequest('PHOTO_SAVE_FILE_INVALID');
  const size = imageSize(data);
  if (!size || size.width === 0 || size.height === 0) throw badRequest('IMAGE_PROCESS_FAILED');
  const ratio = Math.max(size.width, size.height) / Math.min(size.width, size.height);
  if (size.width + size.height > 10000 || ratio > 20) throw badRequest('PHOTO_INVALID_DIMENSIONS');
  return size;
}
