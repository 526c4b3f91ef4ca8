// Everything that is not a message: identity, updates and webhook, chats and
// members, command lists and callback answers.
import { ApiError, badRequest } from './errors.ts';
import { intParam, requireChat, userOf, type Handler } from './context.ts';
import { validateCommands } from './validate.ts';
import { answerInlineQuery } from './inline.ts';
import type { MemberStatus, User } from './types.ts';

/** Telegram forgets an unanswered callback query after about 15 seconds. */
const CALLBACK_TTL_MS = 15_000;

const getMe: Handler = ({ state }) => ({
  ...state.bot,
  can_join_groups: true,
  can_read_all_group_messages: !state.privacyMode,
  supports_inline_queries: state.inlineMode,
  can_connect_to_business: false,
  has_main_web_app: false,
});

const getUpdates: Handler = ({ state, updates, params, closed }) => {
  if (state.webhookUrl !== '') {
    throw new ApiError(
      409,
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    );
  }
  return updates.getUpdates(params, closed);
};

const setWebhook: Handler = ({ state, params }) => {
  const url = typeof params.url === 'string' ? params.url : '';
  if (url !== '' && !/^https:\/\//.test(url))
    throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
  state.webhookUrl = url;
  return true;
};

const deleteWebhook: Handler = ({ state, updates, params }) => {
  state.webhookUrl = '';
  if (params.drop_pending_updates === true) updates.dropPending();
  return true;
};

const getWebhookInfo: Handler = ({ state, updates }) => ({
  url: state.webhookUrl,
  has_custom_certificate: false,
  pending_update_count: updates.queued.length,
});

const getChat: Handler = (ctx) => ({ ...requireChat(ctx), accent_color_id: 0, max_reaction_count: 11 });

/** A ChatMember object; channel admins carry the channel rights (may post, may edit), `rights` overriding them. */
export function memberObject(
  status: MemberStatus,
  user: User,
  channel = false,
  rights: Record<string, boolean> = {},
): Record<string, unknown> {
  switch (status) {
    case 'creator':
      return { status, user, is_anonymous: false };
    case 'administrator':
      return {
        ...(channel ? { can_post_messages: true, can_edit_messages: true } : {}),
        status,
        user,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: true,
        can_manage_video_chats: true,
        can_restrict_members: true,
        can_promote_members: false,
        can_change_info: true,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
        can_pin_messages: true,
        ...rights,
      };
    case 'restricted':
      return {
        status,
        user,
        is_member: true,
        can_send_messages: false,
        can_send_audios: false,
        can_send_documents: false,
        can_send_photos: false,
        can_send_videos: false,
        can_send_video_notes: false,
        can_send_voice_notes: false,
        can_send_polls: false,
        can_send_other_messages: false,
        can_add_web_page_previews: false,
        can_change_info: false,
        can_invite_users: false,
        can_pin_messages: false,
        can_manage_topics: false,
        until_date: 0,
      };
    case 'kicked':
      return { status, user, until_date: 0 };
    default:
      return { status, user };
  }
}

const getChatMember: Handler = (ctx) => {
  const chat = requireChat(ctx);
  const userId = intParam(ctx.params, 'user_id');
  const user = userOf(ctx.state, userId);
  if (!user) throw badRequest('user not found');
  if (chat.type === 'private' && userId !== chat.id && userId !== ctx.state.bot.id) throw badRequest('user not found');
  const rights = ctx.state.rights.get(`${chat.id}:${userId}`);
  return memberObject(ctx.state.statusOf(chat.id, userId), user, chat.type === 'channel', rights);
};

/** Telegram takes a two-letter ISO 639-1 code or none: 'pt-BR' or 'zh-hans' is refused. */
function languageOf(params: Record<string, unknown>): string {
  const lang = typeof params.language_code === 'string' ? params.language_code : '';
  if (lang !== '' && !/^[a-z]{2}$/.test(lang)) throw badRequest('LANG_CODE_INVALID');
  return lang;
}

/** BotCommandScope types, and which ids each needs. */
const SCOPES: Readonly<Record<string, readonly ('chat_id' | 'user_id')[]>> = {
  default: [],
  all_private_chats: [],
  all_group_chats: [],
  all_chat_administrators: [],
  chat: ['chat_id'],
  chat_administrators: ['chat_id'],
  chat_member: ['chat_id', 'user_id'],
};

function commandsKey(params: Record<string, unknown>): string {
  const scope = (params.scope ?? { type: 'default' }) as { type?: unknown; chat_id?: unknown; user_id?: unknown };
  const needs = typeof scope.type === 'string' ? SCOPES[scope.type] : undefined;
  if (!needs) throw badRequest("can't parse BotCommandScope: unsupported type");
  for (const id of needs) if (scope[id] === undefined) throw badRequest(`${id} is empty`);
  const lang = languageOf(params);
  return [scope.type, scope.chat_id ?? '', scope.user_id ?? '', lang].join('|');
}

const setMyCommands: Handler = ({ state, params }) => {
  state.commands.set(commandsKey(params), validateCommands(params.commands));
  return true;
};

const getMyCommands: Handler = ({ state, params }) => state.commands.get(commandsKey(params)) ?? [];

const deleteMyCommands: Handler = ({ state, params }) => {
  state.commands.delete(commandsKey(params));
  return true;
};

/** setMyDescription (0-512 characters) and setMyShortDescription (0-120), per language; '' removes it. */
function describer(field: 'description' | 'short_description', max: number): [Handler, Handler] {
  const store = (state: Parameters<Handler>[0]['state']) =>
    field === 'description' ? state.descriptions : state.shortDescriptions;
  const set: Handler = ({ state, params }) => {
    const lang = languageOf(params);
    const text = typeof params[field] === 'string' ? (params[field] as string) : '';
    if ([...text].length > max)
      throw badRequest(`${field === 'description' ? 'BOT_DESCRIPTION' : 'BOT_SHORT_DESCRIPTION'}_TOO_LONG`);
    if (text === '') store(state).delete(lang);
    else store(state).set(lang, text);
    return true;
  };
  const get: Handler = ({ state, params }) => {
    const lang = languageOf(params);
    return { [field]: store(state).get(lang) ?? store(state).get('') ?? '' };
  };
  return [set, get];
}
const [setMyDescription, getMyDescription] = describer('description', 512);
const [setMyShortDescription, getMyShortDescription] = describer('short_description', 120);

const answerCallbackQuery: Handler = ({ state, params, now }) => {
  const id = typeof params.callback_query_id === 'string' ? params.callback_query_id : '';
  const query = state.callbacks.get(id);
  if (!query || query.answered || now() - query.created > CALLBACK_TTL_MS) {
    throw badRequest('query is too old and response timeout expired or query ID is invalid');
  }
  query.answered = true;
  state.callbackAnswers.push({
    callback_query_id: id,
    text: typeof params.text === 'string' ? params.text : undefined,
    show_alert: params.show_alert === true,
    url: typeof params.url === 'string' ? params.url : undefined,
    time: now(),
  });
  return true;
};

export const botMethods: Record<string, Handler> = {
  getMe,
  getUpdates,
  setWebhook,
  deleteWebhook,
  getWebhookInfo,
  getChat,
  getChatMember,
  setMyCommands,
  getMyCommands,
  deleteMyCommands,
  answerCallbackQuery,
  answerInlineQuery,
  setMyDescription,
  getMyDescription,
  setMyShortDescription,
  getMyShortDescription,
};
