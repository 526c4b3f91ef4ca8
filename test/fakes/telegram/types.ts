// The subset of Bot API objects the fake produces, plus the records tests read back.

export interface MessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  custom_emoji_id?: string;
}

export interface User {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
  language_code?: string;
}

export type ChatType = 'private' | 'group' | 'supergroup' | 'channel';

export interface Chat {
  id: number;
  type: ChatType;
  title?: string;
  username?: string;
  first_name?: string;
  /** A supergroup with topics turned on. */
  is_forum?: boolean;
}

export interface PhotoSize {
  file_id: string;
  file_unique_id: string;
  width: number;
  height: number;
  file_size?: number;
}

export interface InlineKeyboardButton {
  text: string;
  callback_data?: string;
  url?: string;
  [other: string]: unknown;
}

export interface ReplyMarkup {
  inline_keyboard?: InlineKeyboardButton[][];
  [other: string]: unknown;
}

export interface Message {
  message_id: number;
  from?: User;
  chat: Chat;
  date: number;
  edit_date?: number;
  text?: string;
  entities?: MessageEntity[];
  caption?: string;
  caption_entities?: MessageEntity[];
  photo?: PhotoSize[];
  reply_markup?: ReplyMarkup;
  reply_to_message?: Message;
  migrate_to_chat_id?: number;
  migrate_from_chat_id?: number;
  [other: string]: unknown;
}

export interface CallbackQuery {
  id: string;
  from: User;
  message?: Message;
  chat_instance: string;
  data?: string;
}

export interface Update {
  update_id: number;
  message?: Message;
  callback_query?: CallbackQuery;
  [other: string]: unknown;
}

export type MemberStatus = 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';

/** A photo as the fake received it; `data` holds the uploaded bytes so tests can inspect the image. */
export interface PhotoInfo {
  file_id: string;
  source: 'upload' | 'file_id' | 'url';
  width: number;
  height: number;
  size: number;
  filename?: string;
  url?: string;
  data?: Buffer;
}

/** One state of a bot message: the original send or the result of an edit. */
export interface MessageVersion {
  method: string;
  /** Milliseconds since the fake started. */
  time: number;
  /** Text or caption after entity parsing: what the user reads. */
  text: string | undefined;
  /** The raw string as sent when parse_mode was HTML. */
  html: string | undefined;
  parse_mode: string | undefined;
  entities: MessageEntity[];
  reply_markup: ReplyMarkup | undefined;
  photo: PhotoInfo | undefined;
}

/** A message the bot sent, with its current state and every edit after it. */
export interface SentMessage extends MessageVersion {
  message_id: number;
  chat_id: number;
  /** True when `text` is a photo caption. */
  isCaption: boolean;
  reply_to_message_id: number | undefined;
  /** The forum topic (or, outside forums, the reply thread) it was posted in. */
  message_thread_id: number | undefined;
  /** Posted in a forum topic (Telegram's is_topic_message). */
  isTopic: boolean;
  /** Parameters as received (files replaced by their PhotoInfo), for assertions on options. */
  payload: Record<string, unknown>;
  date: number;
  deleted: boolean;
  /** States after each edit, oldest first; the message's own fields hold the latest. */
  edits: MessageVersion[];
}

export interface RequestLogEntry {
  method: string;
  chat_id: number | string | undefined;
  /** HTTP status answered; 0 when no answer went out (dropped on purpose, or the client had gone). */
  status: number;
  description: string | undefined;
  /** Milliseconds since the fake started. */
  time: number;
  /** Sent with allow_paid_broadcast (a paid broadcast, whatever the answer). */
  paid?: boolean;
}

export interface Violation {
  method: string;
  chat_id: number;
  scope: 'chat' | 'global';
  time: number;
  /** How long the 429 window still had to run, in real milliseconds. */
  earlyByMs: number;
}

export interface CallbackAnswer {
  callback_query_id: string;
  text: string | undefined;
  show_alert: boolean;
  url: string | undefined;
  time: number;
}

export interface BotCommand {
  command: string;
  description: string;
}

export type FailureKind =
  | 'kicked'
  | 'blocked'
  | 'not_found'
  | { migrateTo: number }
  | 'server_error'
  | 'drop'
  | 'drop_after_send';

export interface Limits {
  globalPerSecond?: number;
  /** Sends a second, free and paid together, that paid broadcasts may reach (Telegram: 1,000). */
  paidPerSecond?: number;
  perChatPerSecond?: number;
  perGroupPerMinute?: number;
}
