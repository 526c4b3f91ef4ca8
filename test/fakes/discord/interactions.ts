import { performance } from 'node:perf_hooks';
import { interactionToken, snowflake } from './ids.ts';
import { channelPayload, appPermissions, DEFAULT_MEMBER_PERMISSIONS, memberPayload, userPayload } from './payloads.ts';
import type { FakeState, StoredCommand } from './state.ts';
import type { CallbackRecord, FakeMessage, FakeUser, InteractionTarget } from './types.ts';
import { PATIENCE_MS } from '../../helpers/wait.ts';

export const DEFAULT_USER: FakeUser = { id: '1000000000000000042', username: 'tester' };

/** Interaction types as Discord numbers them. */
export const APPLICATION_COMMAND = 2;
export const MESSAGE_COMPONENT = 3;
export const AUTOCOMPLETE = 4;
export const MODAL_SUBMIT = 5;

/** What the fake remembers about one interaction it dispatched. */
export class InteractionRecord {
  readonly id = snowflake();
  readonly token = interactionToken();
  readonly createdAt = Date.now();
  readonly dispatchedAt = performance.now();
  readonly type: number;
  readonly channelId: string;
  readonly guildId: string | undefined;
  readonly user: Record<string, unknown>;
  readonly commandName: string | undefined;
  acked = false;
  readonly callbacks: CallbackRecord[] = [];
  originalId: string | undefined;
  /** The bot produced or edited @original with real content (not a loading placeholder). */
  originalTouched = false;
  readonly followupIds: string[] = [];
  componentMessageId: string | undefined;
  /** The modal the bot answered with (callback type 9), for submitModal. */
  modal: Record<string, unknown> | undefined;
  /** Who and where, as the test asked: a modal's submit comes from the same user and place. */
  target: InteractionTarget | undefined;
  /** A user-installed app in a server that keeps external apps private: Discord makes every reply ephemeral. */
  forceEphemeral = false;
  /** authorizing_integration_owners as sent. */
  owners: Record<string, string> = {};
  readonly #listeners = new Set<() => void>();

  constructor(
    type: number,
    channelId: string,
    guildId: string | undefined,
    user: Record<string, unknown>,
    commandName?: string,
  ) {
    this.type = type;
    this.channelId = channelId;
    this.guildId = guildId;
    this.user = user;
    this.commandName = commandName;
  }

  changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  metadata(): Record<string, unknown> {
    const meta: Record<string, unknown> = {
      id: this.id,
      type: this.type,
      user: this.user,
      authorizing_integration_owners: this.owners,
    };
    if (this.commandName !== undefined) meta['name'] = this.commandName;
    if (this.componentMessageId !== undefined) meta['interacted_message_id'] = this.componentMessageId;
    return meta;
  }
}

export type WaitTarget = 'callback' | 'original' | ((handle: InteractionHandle) => boolean);

/** A test's view of one interaction: what the bot answered, and a way to wait for it. */
export class InteractionHandle {
  readonly id: string;
  readonly token: string;
  readonly #record: InteractionRecord;
  readonly #state: FakeState;

  constructor(state: FakeState, record: InteractionRecord) {
    this.#state = state;
    this.#record = record;
    this.id = record.id;
    this.token = record.token;
  }

  /** Callback bodies in arrival order, each with its delay since dispatch. */
  get callbacks(): readonly CallbackRecord[] {
    return this.#record.callbacks;
  }

  /** The modal the bot showed, if it answered with one. */
  get modal(): Record<string, unknown> | undefined {
    return this.#record.modal;
  }

  /** The interaction as the fake keeps it (for the driver). */
  get record(): InteractionRecord {
    return this.#record;
  }

  /** The current @original message (for a button, the clicked message until replaced). */
  get original(): FakeMessage | undefined {
    const id = this.#record.originalId ?? this.#record.componentMessageId;
    return id === undefined ? undefined : this.#state.messages.byId.get(id);
  }

  get followups(): FakeMessage[] {
    return this.#record.followupIds.flatMap((id) => this.#state.messages.byId.get(id) ?? []);
  }

  /** Resolves once the bot has acknowledged, produced @original, or met the predicate. */
  waitFor(target: WaitTarget, timeoutMs = PATIENCE_MS): Promise<InteractionHandle> {
    const done = (): boolean => {
      if (target === 'callback') return this.#record.callbacks.length > 0;
      if (target === 'original') {
        const original = this.original;
        return (
          this.#record.originalTouched && original !== undefined && !original.deleted && (original.flags & 128) === 0
        );
      }
      return target(this);
    };
    if (done()) return Promise.resolve(this);
    return new Promise((resolve, reject) => {
      const stop = this.#record.listen(() => {
        if (!done()) return;
        clearTimeout(timer);
        stop();
        resolve(this);
      });
      const timer = setTimeout(() => {
        stop();
        const types = this.#record.callbacks.map((c) => c.type).join(',');
        const what = typeof target === 'function' ? 'predicate' : target;
        reject(
          new Error(`interaction ${this.id}: waitFor(${what}) timed out after ${timeoutMs} ms (callbacks: [${types}])`),
        );
      }, timeoutMs);
    });
  }
}

export interface BuiltInteraction {
  record: InteractionRecord;
  payload: Record<string, unknown>;
}

/** INTERACTION_CREATE data as Discord sends it for a guild channel, or a DM when the channel is not in a guild. */
export function buildInteraction(
  state: FakeState,
  type: number,
  target: InteractionTarget,
  data: Record<string, unknown>,
  extra: { commandName?: string; message?: FakeMessage } = {},
): BuiltInteraction {
  const user = userPayload(target.user ?? DEFAULT_USER);
  const install = target.install ?? 'guild';
  if (target.foreignGuildId !== undefined && install !== 'user')
    throw new Error('only a user-installed app runs in a guild the bot is not in');
  const found = state.lookupChannel(target.channelId);
  const guild = found.ok ? found.guild : undefined;
  if (!found.ok && state.channelGuild.has(target.channelId)) {
    throw new Error(`channel ${target.channelId} belongs to a guild the bot was removed from`);
  }
  if (target.guildId !== undefined && guild?.id !== target.guildId) {
    throw new Error(`channel ${target.channelId} is not a channel of configured guild ${target.guildId}`);
  }
  const context = target.context ?? (guild || target.foreignGuildId !== undefined ? 0 : 1);
  if (context === 2 && install !== 'user')
    throw new Error('private channels (group DMs) are reached by user-installed apps only');
  const record = new InteractionRecord(
    type,
    target.channelId,
    guild?.id ?? target.foreignGuildId,
    user,
    extra.commandName,
  );
  // Discord names who authorized the app: the guild (0) and/or the user (1).
  record.target = target;
  record.owners = install === 'user' ? { '1': String(user['id']) } : { '0': guild?.id ?? '0' };
  record.forceEphemeral = install === 'user' && context === 0 && target.externalAppsPublic === false;
  const payload: Record<string, unknown> = {
    id: record.id,
    application_id: state.applicationId,
    type,
    token: record.token,
    version: 1,
    data,
    channel_id: target.channelId,
    app_permissions: target.appPermissions ?? appPermissions(guild),
    locale: target.locale ?? 'en-US',
    entitlements: [],
    authorizing_integration_owners: record.owners,
    context,
    attachment_size_limit: 10 * 1024 * 1024,
  };
  if (guild && found.ok) {
    const position = guild.channels.findIndex((c) => c.id === target.channelId);
    payload['guild_id'] = guild.id;
    payload['guild'] = { id: guild.id, locale: guild.locale, features: [] };
    payload['guild_locale'] = guild.locale;
    payload['channel'] = channelPayload(guild.id, found.channel, position);
    payload['member'] = memberPayload(user, guild.joinedAt, target.memberPermissions ?? DEFAULT_MEMBER_PERMISSIONS);
  } else if (target.foreignGuildId !== undefined) {
    // The bot is not in this guild: no guild object, a partial channel, the member's permissions.
    payload['guild_id'] = target.foreignGuildId;
    payload['channel'] = {
      id: target.channelId,
      type: 0,
      guild_id: target.foreignGuildId,
      name: 'general',
      position: 0,
      flags: 0,
      permissions: '0',
    };
    payload['member'] = memberPayload(
      user,
      new Date(0).toISOString(),
      target.memberPermissions ?? DEFAULT_MEMBER_PERMISSIONS,
    );
  } else if (context === 2) {
    payload['channel'] = {
      id: target.channelId,
      type: 3,
      flags: 0,
      last_message_id: null,
      recipients: [user],
      name: null,
      owner_id: user['id'],
    };
    payload['user'] = user;
  } else {
    payload['channel'] = { id: target.channelId, type: 1, flags: 0, last_message_id: null, recipients: [user] };
    payload['user'] = user;
  }
  if (extra.message) {
    record.componentMessageId = extra.message.id;
    payload['message'] = state.messages.toApi(extra.message, state.botUser());
  }
  return { record, payload };
}

export function commandId(
  state: FakeState,
  name: string,
  guildId: string | undefined,
  type = 1,
): { id: string; guildCommand: boolean } {
  const registered = findCommand(state, name, guildId, type);
  return registered
    ? { id: registered.command.id, guildCommand: registered.guild }
    : { id: snowflake(), guildCommand: false };
}

function findCommand(state: FakeState, name: string, guildId: string | undefined, type: number) {
  const match = (c: StoredCommand) => c.name === name && (c['type'] ?? 1) === type;
  const inGuild = guildId === undefined ? undefined : state.commands.get(guildId)?.find(match);
  if (inGuild) return { command: inGuild, guild: true };
  const global = state.commands.get('global')?.find(match);
  return global ? { command: global, guild: false } : undefined;
}

/**
 * Discord only offers a registered command where its `contexts` and `integration_types`
 * allow: a test asking for it elsewhere is a test of something no user can do.
 */
export function assertOffered(state: FakeState, name: string, target: InteractionTarget, type = 1): void {
  const guildId = target.foreignGuildId ?? target.guildId ?? state.channelGuild.get(target.channelId);
  const found = findCommand(state, name, target.foreignGuildId ? undefined : guildId, type);
  if (!found) return;
  const install = target.install === 'user' ? 1 : 0;
  const context = target.context ?? (guildId !== undefined ? 0 : 1);
  const types = found.command['integration_types'];
  const contexts = found.command['contexts'];
  if (Array.isArray(types) && !types.includes(install))
    throw new Error(`Discord does not offer ${name} to a ${target.install ?? 'guild'} install`);
  if (Array.isArray(contexts) && !contexts.includes(context))
    throw new Error(`Discord does not offer ${name} in context ${context}`);
}
