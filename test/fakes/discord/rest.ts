// Bot-authenticated REST routes: gateway discovery, identity, commands, channel messages.
import { snowflake } from './ids.ts';
import { applicationPayload, channelPayload } from './payloads.ts';
import { allowedMentionsError, NOBODY, notified } from './mentions.ts';
import type { FakeChannel, FakeState } from './state.ts';
import { error, unknownMessage } from './route-types.ts';
import type { Handler, Reply } from './route-types.ts';
import type { StoredCommand } from './state.ts';
import { asArray, asRecord, FormErrors, validateMessage } from './validate.ts';

export const gatewayBot: Handler = ({ state }) => ({
  status: 200,
  json: {
    url: state.origin.replace(/^http/, 'ws'),
    shards: state.recommendedShards,
    session_start_limit: {
      total: 1000,
      remaining: state.sessionStartRemaining,
      reset_after: 14_400_000,
      max_concurrency: state.maxConcurrency,
    },
  },
});

export const gateway: Handler = ({ state }) => ({ status: 200, json: { url: state.origin.replace(/^http/, 'ws') } });

export const currentUser: Handler = ({ state }) => ({ status: 200, json: state.botUser() });

export const currentApplication: Handler = ({ state }) => ({ status: 200, json: applicationPayload(state) });

const COMMAND_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** Discord's locales for name_localizations and description_localizations (discord-api-types `Locale`). */
export const DISCORD_LOCALES = new Set(
  'id en-US en-GB bg zh-CN zh-TW hr cs da nl fi fr de el hi hu it ja ko lt no pl pt-BR ro ru es-ES es-419 sv-SE th tr uk vi'.split(
    ' ',
  ),
);

/** Each key a Discord locale, each name valid as the command's own name would be (slash: lowercase, no spaces; menus: 1-32 characters). */
function validateNameLocalizations(errors: FormErrors, path: (string | number)[], value: unknown, type: number): void {
  if (value === undefined || value === null) return;
  for (const [locale, text] of Object.entries(asRecord(value))) {
    const ok =
      typeof text === 'string' &&
      (type === 1
        ? COMMAND_NAME.test(text) && text === text.toLowerCase()
        : /^.{1,32}$/u.test(text) && text.trim() === text);
    if (!DISCORD_LOCALES.has(locale)) errors.add([...path, locale], 'LOCALE_INVALID', 'Invalid locale');
    else if (!ok) errors.add([...path, locale], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
  }
}

/** At most 25 choices, each named 1-100 characters (in every localisation too), its value at most 100. */
function validateChoices(errors: FormErrors, path: (string | number)[], value: unknown): void {
  if (value === undefined || value === null) return;
  const choices = asArray(value);
  if (choices.length > 25) errors.add(path, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  choices.forEach((raw, k) => {
    const choice = asRecord(raw);
    const name = choice['name'];
    if (typeof name !== 'string' || name.length < 1 || name.length > 100)
      errors.add([...path, k, 'name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    if (typeof choice['value'] === 'string' && choice['value'].length > 100)
      errors.add([...path, k, 'value'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    // A choice's localised names follow the description rule: a Discord locale, 1-100 characters.
    validateDescriptionLocalizations(errors, [...path, k, 'name_localizations'], choice['name_localizations']);
  });
}

/** Each key a Discord locale, each description 1-100 characters, as Discord checks a localisation map. */
function validateDescriptionLocalizations(errors: FormErrors, path: (string | number)[], value: unknown): void {
  if (value === undefined || value === null) return;
  for (const [locale, text] of Object.entries(asRecord(value))) {
    if (!DISCORD_LOCALES.has(locale)) errors.add([...path, locale], 'LOCALE_INVALID', 'Invalid locale');
    else if (typeof text !== 'string' || text.length < 1 || text.length > 100)
      errors.add([...path, locale], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  }
}

function validateCommands(list: unknown[]): FormErrors {
  const errors = new FormErrors();
  if (list.length > 100) errors.add([], 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
  const seen = new Set<string>();
  list.forEach((raw, i) => {
    const command = asRecord(raw);
    const name = command['name'];
    const type = typeof command['type'] === 'number' ? command['type'] : 1;
    if (![1, 2, 3].includes(type)) errors.add([i, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2, 3, 4}.');
    // User and message commands (types 2, 3) may have spaces and capitals: "Token card".
    const nameOk =
      typeof name === 'string' &&
      (type === 1
        ? COMMAND_NAME.test(name) && name === name.toLowerCase()
        : /^.{1,32}$/u.test(name) && name.trim() === name);
    if (!nameOk) {
      errors.add([i, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    } else if (seen.has(`${type}:${name}`)) {
      errors.add([i, 'name'], 'APPLICATION_COMMANDS_DUPLICATE_NAME', `Application command names must be unique`);
    } else {
      seen.add(`${type}:${name}`);
    }
    const description = command['description'];
    if (type === 1 && (typeof description !== 'string' || description.length < 1 || description.length > 100)) {
      errors.add([i, 'description'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    }
    validateDescriptionLocalizations(errors, [i, 'description_localizations'], command['description_localizations']);
    validateNameLocalizations(errors, [i, 'name_localizations'], command['name_localizations'], type);
    if (type !== 1 && description !== undefined && description !== '') {
      errors.add(
        [i, 'description'],
        'APPLICATION_COMMAND_INVALID_DESCRIPTION',
        'Context menu commands cannot have description',
      );
    }
    if (type !== 1 && asArray(command['options']).length > 0) {
      errors.add([i, 'options'], 'APPLICATION_COMMAND_OPTIONS_INVALID', 'Context menu commands cannot have options');
    }
    // Installation kinds: 0 guild, 1 user. Contexts: 0 guild, 1 bot DM, 2 private channel.
    const integrations = command['integration_types'];
    if (
      integrations !== undefined &&
      integrations !== null &&
      !(Array.isArray(integrations) && integrations.length > 0 && integrations.every((v) => v === 0 || v === 1))
    ) {
      errors.add([i, 'integration_types'], 'BASE_TYPE_CHOICES', 'Value must be one of {0, 1}.');
    }
    const contexts = command['contexts'];
    if (
      contexts !== undefined &&
      contexts !== null &&
      !(Array.isArray(contexts) && contexts.length > 0 && contexts.every((v) => v === 0 || v === 1 || v === 2))
    ) {
      errors.add([i, 'contexts'], 'BASE_TYPE_CHOICES', 'Value must be one of {0, 1, 2}.');
    }
    const options = asArray(command['options']);
    if (options.length > 25) errors.add([i, 'options'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    options.forEach((rawOption, j) => {
      const option = asRecord(rawOption);
      if (typeof option['name'] !== 'string' || !COMMAND_NAME.test(option['name'])) {
        errors.add([i, 'options', j, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
      }
      validateDescriptionLocalizations(
        errors,
        [i, 'options', j, 'description_localizations'],
        option['description_localizations'],
      );
      const text = option['description'];
      if (typeof text !== 'string' || text.length < 1 || text.length > 100) {
        errors.add([i, 'options', j, 'description'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
      }
      validateChoices(errors, [i, 'options', j, 'choices'], option['choices']);
    });
  });
  return errors;
}

function commandScope(ctx: Parameters<Handler>[0]): string | Reply {
  const { state, params } = ctx;
  if (params['applicationId'] !== state.applicationId) {
    return error(403, 20012, 'You are not authorized to perform this action on this application');
  }
  const guildId = params['guildId'];
  if (guildId === undefined) return 'global';
  const guild = state.guilds.get(guildId);
  if (!guild || guild.removed) return error(403, 50001, 'Missing Access');
  return guildId;
}

/** PUT replaces the whole set, as bulk overwrite does; ids survive for unchanged names. */
export const putCommands: Handler = (ctx) => {
  const scope = commandScope(ctx);
  if (typeof scope !== 'string') return scope;
  if (!ctx.list) return { status: 400, json: { message: 'Invalid Form Body', code: 50035, errors: {} } };
  const errors = validateCommands(ctx.list);
  if (!errors.empty) return { status: 400, json: errors.body() };
  const previous = ctx.state.commands.get(scope) ?? [];
  const stored = ctx.list.map((raw): StoredCommand => {
    const input = asRecord(raw);
    const type = typeof input['type'] === 'number' ? input['type'] : 1;
    const name = String(input['name']);
    const kept = previous.find((c) => c.name === name && c['type'] === type);
    const command: StoredCommand = {
      default_member_permissions: null,
      name_localizations: null,
      description_localizations: null,
      nsfw: false,
      integration_types: [0],
      contexts: null,
      ...input,
      id: kept?.id ?? snowflake(),
      application_id: ctx.state.applicationId,
      version: snowflake(),
      type,
      name,
      description: typeof input['description'] === 'string' ? input['description'] : '',
    };
    if (scope !== 'global') command['guild_id'] = scope;
    return command;
  });
  ctx.state.commands.set(scope, stored);
  return { status: 200, json: stored };
};

export const getCommands: Handler = (ctx) => {
  const scope = commandScope(ctx);
  if (typeof scope !== 'string') return scope;
  return { status: 200, json: ctx.state.commands.get(scope) ?? [] };
};

function channelOrError(ctx: Parameters<Handler>[0]) {
  return ctx.state.lookupChannel(ctx.params['channelId'] ?? '');
}

export const getChannel: Handler = (ctx) => {
  const found = channelOrError(ctx);
  if (!found.ok) return error(found.status, found.code, found.message);
  const position = found.guild.channels.indexOf(found.channel);
  return { status: 200, json: channelPayload(found.guild.id, found.channel, position) };
};

export const typing: Handler = (ctx) => {
  const found = channelOrError(ctx);
  return found.ok ? { status: 204 } : error(found.status, found.code, found.message);
};

export const createMessage: Handler = (ctx) => {
  const { state, body } = ctx;
  const channelId = ctx.params['channelId'] ?? '';
  const dm = state.dmChannels.has(channelId);
  const found = dm ? { ok: true as const, guild: undefined, channel: { id: channelId } } : channelOrError(ctx);
  if (!found.ok) return error(found.status, found.code, found.message);
  const closed = dm && closedDm(state, channelId);
  if (closed) return closed;
  const refused = found.guild ? cannotPost(found.channel as FakeChannel) : undefined;
  if (refused) return refused;
  const invalid = validateMessage(body, ctx.files.length, true) ?? allowedMentionsError(body);
  if (invalid) return { status: 400, json: invalid };
  if (body['enforce_nonce'] === true) {
    const previous = state.messages.findByNonce(body['nonce'], ctx.now);
    if (previous === 'deleted') return unknownMessage();
    if (previous) return { status: 200, json: state.messages.toApi(previous, state.botUser()) };
  }
  // Posting in an archived thread the bot may post in unarchives it, as Discord does.
  if (found.guild) (found.channel as FakeChannel).archived = false;
  const message = state.messages.create({
    channelId: found.channel.id,
    ...(found.guild ? { guildId: found.guild.id } : {}),
    body,
    files: ctx.files,
    source: 'channel',
    type: body['message_reference'] === undefined ? 0 : 19,
    origin: state.origin,
    notified: found.guild ? notified(body, found.guild.roles, found.guild.botMentionsEveryone) : NOBODY,
  });
  return { status: 200, json: state.messages.toApi(message, state.botUser()) };
};

/** Why Discord refuses a message in this channel: a forum takes posts, not messages; a locked archived thread nothing. */
function cannotPost(channel: FakeChannel): Reply | undefined {
  if (channel.type === 15) return error(400, 50008, 'Cannot send messages in a non-text channel');
  if (channel.type === 11 && channel.archived && channel.locked) return error(400, 50083, 'Thread is archived');
  return undefined;
}

/** A DM to a user who closed their DMs to the bot (or shares no server with it). */
function closedDm(state: FakeState, channelId: string): Reply | undefined {
  const user = state.dmUsers.get(channelId);
  return user !== undefined && state.closedDms.has(user)
    ? error(403, 50007, 'Cannot send messages to this user')
    : undefined;
}

/** POST /users/@me/channels: opens (or finds) the DM channel with a user; it always succeeds, sending may not. */
export const createDm: Handler = ({ state, body }) => {
  const user = String(body['recipient_id'] ?? '');
  if (!/^\d{17,20}$/.test(user))
    return { status: 400, json: { code: 50035, message: 'Invalid Form Body', errors: {} } };
  let id = [...state.dmUsers].find(([, u]) => u === user)?.[0];
  if (id === undefined) {
    id = snowflake();
    state.dmUsers.set(id, user);
    state.dmChannels.add(id);
  }
  return {
    status: 200,
    json: {
      id,
      type: 1,
      flags: 0,
      last_message_id: null,
      recipients: [
        { id: user, username: `user${user.slice(-4)}`, discriminator: '0', global_name: null, avatar: null },
      ],
    },
  };
};

const HOUR_MS = 3_600_000;
/** Crossposts Discord allows per announcement channel per hour. */
export const CROSSPOSTS_PER_HOUR = 10;

/** The crosspost bucket's opaque id, as Discord names a bucket (a hash clients only compare). */
const CROSSPOST_BUCKET = 'b6f1a7c3e2d94f0a8c5b1e7d3a9f2c60';

/** POST /channels/:id/messages/:mid/crosspost: publishes to following servers, 10 an hour per channel. */
export const crosspost: Handler = (ctx) => {
  const { state } = ctx;
  const found = channelOrError(ctx);
  if (!found.ok) return error(found.status, found.code, found.message);
  const message = state.messages.byId.get(ctx.params['messageId'] ?? '');
  if (!message || message.deleted || message.channel_id !== found.channel.id) return unknownMessage();
  if (found.channel.type !== 5) return error(400, 50024, 'Cannot execute action on this channel type');
  if (message.crossposted) return error(400, 40033, 'This message has already been crossposted.');
  const now = state.clock();
  let hour = state.crossposts.get(found.channel.id);
  if (!hour || now - hour.since >= HOUR_MS) {
    hour = { since: now, count: 0 };
    state.crossposts.set(found.channel.id, hour);
  }
  if (hour.count >= CROSSPOSTS_PER_HOUR) {
    state.crosspost429s++;
    const retryAfter = (hour.since + HOUR_MS - now) / 1000;
    // As Discord answers it: the channel's crosspost bucket is empty until the hour ends, and
    // Retry-After (whole seconds, rounded up) says so; a client that honours it waits the hour.
    return {
      status: 429,
      json: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
      headers: {
        'Retry-After': String(Math.ceil(retryAfter)),
        'X-RateLimit-Limit': String(CROSSPOSTS_PER_HOUR),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String((hour.since + HOUR_MS) / 1000),
        'X-RateLimit-Reset-After': String(retryAfter),
        'X-RateLimit-Bucket': CROSSPOST_BUCKET,
        'X-RateLimit-Scope': 'user',
      },
    };
  }
  hour.count++;
  message.crossposted = true;
  message.flags |= 1;
  return { status: 200, json: state.messages.toApi(message, state.botUser()) };
};

/**
 * POST /channels/:forum/threads: a forum post, a thread whose first message is `message`
 * (the thread's id is that message's id). Name 1-100 characters; at most 5 tags, each the
 * forum's; a forum with REQUIRE_TAG refuses a post without one (40067). The message's
 * `nonce` with `enforce_nonce` dedupes as in createMessage.
 */
export const forumPost: Handler = (ctx) => {
  const { state, body } = ctx;
  const found = channelOrError(ctx);
  if (!found.ok) return error(found.status, found.code, found.message);
  const forum = found.channel;
  if (forum.type !== 15) return error(400, 50024, 'Cannot execute action on this channel type');
  const name = body['name'];
  const tags = asArray(body['applied_tags']).map(String);
  const form = new FormErrors();
  if (typeof name !== 'string' || name.length < 1 || name.length > 100)
    form.add(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  if (tags.length > 5) form.add(['applied_tags'], 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.');
  if (tags.some((t) => !(forum.tags ?? []).some((f) => f.id === t)))
    form.add(['applied_tags'], 'INVALID_FORUM_TAG', "A tag is not one of the forum's tags.");
  if (!form.empty) return { status: 400, json: form.body() };
  if (forum.requireTag && tags.length === 0)
    return error(400, 40067, 'A tag is required to create a forum post in this channel');
  const starter = asRecord(body['message']);
  const invalid = validateMessage(starter, ctx.files.length, true) ?? allowedMentionsError(starter);
  if (invalid) return { status: 400, json: invalid };
  // The starter message is a message create: an enforced nonce seen within the window answers with the first
  // post (its thread and message) instead of opening another, as for a message in a channel.
  if (starter['enforce_nonce'] === true) {
    const previous = state.messages.findByNonce(starter['nonce'], ctx.now);
    if (previous === 'deleted') return unknownMessage();
    const first = previous && state.lookupChannel(previous.channel_id);
    if (previous && first?.ok)
      return {
        status: 201,
        json: {
          ...channelPayload(first.guild.id, first.channel, 0),
          applied_tags: state.threadTags.get(first.channel.id) ?? [],
          message: state.messages.toApi(previous, state.botUser()),
        },
      };
  }
  const message = state.messages.create({
    channelId: 'pending',
    guildId: found.guild.id,
    body: starter,
    files: ctx.files,
    source: 'channel',
    origin: state.origin,
    notified: notified(starter, found.guild.roles, found.guild.botMentionsEveryone),
    threadOf: forum.id,
  });
  const thread: FakeChannel = { id: message.id, name: String(name), type: 11, parentId: forum.id };
  state.addThread(found.guild, thread);
  state.threadTags.set(thread.id, tags);
  return {
    status: 201,
    json: {
      ...channelPayload(found.guild.id, thread, 0),
      applied_tags: tags,
      message: state.messages.toApi(message, state.botUser()),
    },
  };
};

/** GET/PATCH/DELETE of a message the bot posted in a channel. */
export const channelMessage: Handler = (ctx) => {
  const { state } = ctx;
  const found = channelOrError(ctx);
  if (!found.ok) return error(found.status, found.code, found.message);
  const message = state.messages.byId.get(ctx.params['messageId'] ?? '');
  if (!message || message.deleted || message.channel_id !== found.channel.id) return unknownMessage();
  if (ctx.method === 'DELETE') {
    message.deleted = true;
    return { status: 204 };
  }
  if (ctx.method === 'PATCH') {
    const invalid = validateMessage(ctx.body, ctx.files.length, false);
    if (invalid) return { status: 400, json: invalid };
    state.messages.edit(message, ctx.body, ctx.files, state.origin);
  }
  return { status: 200, json: state.messages.toApi(message, state.botUser()) };
};
