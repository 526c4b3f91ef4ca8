// A protocol-faithful Discord (REST v10 + gateway) on 127.0.0.1 for tests and benchmarks,
// driven by the real discord.js client. See README.md next to this file.
import { sign, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gateway } from './gateway.ts';
import { PATIENCE_MS } from '../../helpers/wait.ts';
import {
  APPLICATION_COMMAND,
  assertOffered,
  AUTOCOMPLETE,
  buildInteraction,
  DEFAULT_USER,
  commandId,
  InteractionHandle,
  MESSAGE_COMPONENT,
  MODAL_SUBMIT,
} from './interactions.ts';
import { asArray, asRecord } from './validate.ts';
import type { BuiltInteraction } from './interactions.ts';
import { interactionCallback } from './interaction-routes.ts';
import { snowflake } from './ids.ts';
import { guildPayload, rolePayload, shardOf } from './payloads.ts';
import { createHandler } from './server.ts';
import { FakeState } from './state.ts';
import type { FakeChannel, StoredCommand } from './state.ts';
import type {
  ChannelFailure,
  ClickButtonOptions,
  CommandOption,
  DiscordFakeOptions,
  FakeGuildConfig,
  FakeMessage,
  Force429Options,
  GatewayEvent,
  RequestLogEntry,
  PostMessageOptions,
  RouteMatcher,
  SendCommandOptions,
  SendMessageCommandOptions,
  Violation,
} from './types.ts';
import { userPayload } from './payloads.ts';

export type * from './types.ts';
export type { StoredCommand } from './state.ts';
export { InteractionHandle } from './interactions.ts';
export type { WaitTarget } from './interactions.ts';
export { guildOnShard, snowflake } from './ids.ts';
export { DEFAULT_APP_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS } from './payloads.ts';

function hasFocused(options: CommandOption[] | undefined): boolean {
  return (options ?? []).some((o) => o.focused === true || hasFocused(o.options));
}

function findButton(rows: Record<string, unknown>[], customId: string): Record<string, unknown> | undefined {
  for (const row of rows) {
    const children = Array.isArray(row['components']) ? (row['components'] as Record<string, unknown>[]) : [];
    if (row['custom_id'] === customId && row['type'] === 2) return row;
    const hit = findButton(children, customId);
    if (hit) return hit;
  }
  return undefined;
}

export class DiscordFake {
  /** Pass as `rest: { api }` to discord.js; it appends /v10 itself. */
  readonly apiBase: string;
  /** http://127.0.0.1:PORT, also the gateway host (ws://). */
  readonly origin: string;
  readonly token: string;
  readonly applicationId: string;
  readonly botUserId: string;
  readonly #state: FakeState;
  readonly #server: Server;
  readonly #gateway: Gateway;
  #endpoint: { url: string; key: KeyObject } | undefined;
  /** Each interaction POSTed to the Interactions Endpoint URL: its id and the HTTP status answered (0: no answer). */
  readonly interactionPosts: { id: string; status: number }[] = [];

  constructor(state: FakeState, server: Server, gateway: Gateway) {
    this.#state = state;
    this.#server = server;
    this.#gateway = gateway;
    this.origin = state.origin;
    this.apiBase = `${state.origin}/api`;
    this.token = state.token;
    this.applicationId = state.applicationId;
    this.botUserId = state.botUserId;
  }

  /** A user runs a slash command: the bot receives a ChatInputCommandInteraction. */
  async sendCommand(options: SendCommandOptions): Promise<InteractionHandle> {
    return this.#dispatch(this.#commandInteraction(APPLICATION_COMMAND, options));
  }

  /**
   * A user right-clicks a message → Apps → `name` (a message command, type 3). Discord sends
   * the target message in `data.resolved.messages`, whatever the bot's intents.
   */
  async sendMessageCommand(options: SendMessageCommandOptions): Promise<InteractionHandle> {
    assertOffered(this.#state, options.name, options, 3);
    const guildId = options.foreignGuildId ?? options.guildId ?? this.#state.channelGuild.get(options.channelId);
    const command = commandId(this.#state, options.name, options.foreignGuildId ? undefined : guildId, 3);
    const targetId = options.target.id ?? snowflake();
    const message = this.#userMessage(
      options.channelId,
      guildId,
      options.target.content,
      options.target.author ?? DEFAULT_USER,
      targetId,
    );
    const data: Record<string, unknown> = {
      id: command.id,
      name: options.name,
      type: 3,
      target_id: targetId,
      resolved: { messages: { [targetId]: message } },
    };
    if (command.guildCommand && guildId !== undefined) data['guild_id'] = guildId;
    return this.#dispatch(
      buildInteraction(this.#state, APPLICATION_COMMAND, options, data, { commandName: options.name }),
    );
  }

  /**
   * A user posts a message. The bot receives MESSAGE_CREATE only with the GUILD_MESSAGES
   * (guild) or DIRECT_MESSAGES (DM) intent; its content, embeds and attachments arrive empty
   * without MESSAGE_CONTENT, except in DMs and messages that mention the bot. Returns the id.
   */
  postMessage(options: PostMessageOptions): string {
    const guildId = this.#state.channelGuild.get(options.channelId);
    if (guildId === undefined) this.#state.dmChannels.add(options.channelId);
    const author = { ...userPayload(options.author ?? DEFAULT_USER), ...(options.authorIsBot ? { bot: true } : {}) };
    const message = this.#userMessage(
      options.channelId,
      guildId,
      options.content,
      options.author ?? DEFAULT_USER,
      snowflake(),
      author,
    );
    if (options.mentionsBot) message['mentions'] = [this.#state.botUser()];
    // Gateway-only field: discord.js builds the (uncached) DM channel from it.
    message['channel_type'] = guildId === undefined ? 1 : 0;
    this.#gateway.dispatchWith('MESSAGE_CREATE', (intents) => {
      if (guildId === undefined ? (intents & DIRECT_MESSAGES) === 0 : (intents & GUILD_MESSAGES) === 0)
        return undefined;
      const visible = guildId === undefined || options.mentionsBot === true || (intents & MESSAGE_CONTENT) !== 0;
      return visible ? message : { ...message, content: '', embeds: [], attachments: [], components: [] };
    });
    return String(message['id']);
  }

  #userMessage(
    channelId: string,
    guildId: string | undefined,
    content: string,
    user: { id: string; username: string },
    id: string,
    author?: Record<string, unknown>,
  ): Record<string, unknown> {
    const message: Record<string, unknown> = {
      id,
      type: 0,
      channel_id: channelId,
      author: author ?? userPayload(user),
      content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
      flags: 0,
      components: [],
    };
    if (guildId !== undefined) message['guild_id'] = guildId;
    return message;
  }

  /** A user types into an autocomplete option (exactly one option marked `focused`). */
  async sendAutocomplete(options: SendCommandOptions): Promise<InteractionHandle> {
    if (!hasFocused(options.options)) throw new Error('sendAutocomplete needs one option with focused: true');
    return this.#dispatch(this.#commandInteraction(AUTOCOMPLETE, options));
  }

  /** A user clicks a button on a message the bot produced; refuses buttons that are absent or disabled, as Discord's UI would. */
  async clickButton(options: ClickButtonOptions): Promise<InteractionHandle> {
    const message = this.#state.messages.byId.get(options.message.id);
    if (!message || message.deleted)
      throw new Error(`clickButton: message ${options.message.id} was not produced by the bot`);
    const button = findButton(message.components, options.customId);
    if (!button && !options.forged)
      throw new Error(`clickButton: message ${message.id} has no button ${options.customId}`);
    if (button?.['disabled'] === true) throw new Error(`clickButton: button ${options.customId} is disabled`);
    const built = buildInteraction(
      this.#state,
      MESSAGE_COMPONENT,
      { ...options, channelId: options.channelId ?? message.channel_id },
      { custom_id: options.customId, component_type: 2 },
      { message },
    );
    return this.#dispatch(built);
  }

  /**
   * A user picks in a select menu on a bot message: a MESSAGE_COMPONENT
   * interaction (component_type 3) with the values chosen. Refuses what the UI
   * would not send: a menu the message lacks, a value not among its options, fewer
   * than min_values or more than max_values.
   */
  async chooseOption(
    options: Omit<ClickButtonOptions, 'forged'> & { values: readonly string[] },
  ): Promise<InteractionHandle> {
    const message = this.#state.messages.byId.get(options.message.id);
    if (!message || message.deleted) throw new Error(`chooseOption: message ${options.message.id} is not the bot's`);
    const select = message.components
      .flatMap((r) => asArray(r['components']).map(asRecord))
      .find((c) => c['type'] === 3 && c['custom_id'] === options.customId);
    if (!select) throw new Error(`chooseOption: message ${message.id} has no select menu ${options.customId}`);
    const offered = asArray(select['options']).map((o) => asRecord(o)['value']);
    for (const v of options.values) if (!offered.includes(v)) throw new Error(`chooseOption: no option ${v}`);
    const min = typeof select['min_values'] === 'number' ? select['min_values'] : 1;
    const max = typeof select['max_values'] === 'number' ? select['max_values'] : 1;
    if (options.values.length < min || options.values.length > max)
      throw new Error(`chooseOption: ${options.values.length} values, the menu takes ${min}-${max}`);
    const built = buildInteraction(
      this.#state,
      MESSAGE_COMPONENT,
      { ...options, channelId: options.channelId ?? message.channel_id },
      { custom_id: options.customId, component_type: 3, values: [...options.values] },
      { message },
    );
    return this.#dispatch(built);
  }

  /**
   * The user who got a modal fills it in and submits it: a MODAL_SUBMIT
   * interaction from the same user and channel, carrying each field's value
   * (and the message, when a button opened the modal). Refuses what Discord's UI
   * would not let through: no modal shown, a field it lacks, a required field
   * left empty, a value over its max_length.
   */
  async submitModal(opened: InteractionHandle, values: Readonly<Record<string, string>>): Promise<InteractionHandle> {
    const modal = opened.modal;
    const record = opened.record;
    if (!modal || !record.target) throw new Error('submitModal: the bot showed no modal for this interaction');
    const inputs = asArray(modal['components']).flatMap((r) => asArray(asRecord(r)['components']).map(asRecord));
    for (const id of Object.keys(values))
      if (!inputs.some((x) => x['custom_id'] === id)) throw new Error(`submitModal: the modal has no field ${id}`);
    const rows = inputs.map((input) => {
      const id = String(input['custom_id']);
      const value = values[id] ?? (typeof input['value'] === 'string' ? input['value'] : '');
      if (input['required'] !== false && value === '') throw new Error(`submitModal: ${id} is required`);
      const max = typeof input['max_length'] === 'number' ? input['max_length'] : 4000;
      if (value.length > max) throw new Error(`submitModal: ${id} is longer than ${max}`);
      return { type: 1, components: [{ type: 4, custom_id: id, value }] };
    });
    const message =
      record.componentMessageId === undefined ? undefined : this.#state.messages.byId.get(record.componentMessageId);
    const built = buildInteraction(
      this.#state,
      MODAL_SUBMIT,
      record.target,
      { custom_id: modal['custom_id'], components: rows },
      message ? { message } : {},
    );
    return this.#dispatch(built);
  }

  /** Messages the bot created with POST /channels/:id/messages, in order (deleted ones flagged). */
  channelMessages(channelId: string): FakeMessage[] {
    return [...(this.#state.messages.byChannel.get(channelId) ?? [])];
  }

  /** A channel or thread as the fake holds it now (a thread's `archived`, a forum's tags). */
  channel(id: string): FakeChannel | undefined {
    const found = this.#state.lookupChannel(id);
    return found.ok ? found.channel : undefined;
  }

  /** A thread is archived (after its inactivity period, or by a moderator) and maybe locked. */
  archiveThread(id: string, o: { locked?: boolean } = {}): void {
    const thread = this.channel(id);
    if (thread?.type !== 11) throw new Error(`archiveThread: ${id} is not a thread`);
    thread.archived = true;
    thread.locked = o.locked ?? false;
  }

  /** The threads of a forum (its posts), in creation order, with the tags each was given. */
  forumPosts(forumId: string): { thread: FakeChannel; tags: string[]; messages: FakeMessage[] }[] {
    const guild = this.#state.guilds.get(this.#state.channelGuild.get(forumId) ?? '');
    return (guild?.channels ?? [])
      .filter((c) => c.parentId === forumId && c.type === 11)
      .map((thread) => ({
        thread,
        tags: this.#state.threadTags.get(thread.id) ?? [],
        messages: this.channelMessages(thread.id),
      }));
  }

  /** A user changes whether the bot may DM them (Privacy Settings, or leaving every shared server). */
  setDmsClosed(userId: string, closed: boolean): void {
    if (closed) this.#state.closedDms.add(userId);
    else this.#state.closedDms.delete(userId);
  }

  /** The DM channel between the bot and a user, once either opened it. */
  dmChannelOf(userId: string): string | undefined {
    return [...this.#state.dmUsers].find(([, u]) => u === userId)?.[0];
  }

  /** Crossposts refused with 429 because the channel's 10 an hour were used. */
  get crosspost429s(): number {
    return this.#state.crosspost429s;
  }

  /** A member with Manage Messages deletes one of the bot's messages: a later edit answers Unknown Message (10008). */
  deleteMessage(id: string): void {
    const m = this.#state.messages.byId.get(id);
    if (!m) throw new Error(`deleteMessage: the bot produced no message ${id}`);
    m.deleted = true;
  }

  /** Any message the bot produced (channel send, interaction reply, follow-up), by id. */
  message(id: string): FakeMessage | undefined {
    return this.#state.messages.byId.get(id);
  }

  /** The last command set the bot registered globally, or for one guild. */
  registeredCommands(guildId?: string): StoredCommand[] {
    return [...(this.#state.commands.get(guildId ?? 'global') ?? [])];
  }

  /** Every HTTP request received, in arrival order, to assert on routes, statuses and pacing. */
  get requests(): readonly RequestLogEntry[] {
    return this.#state.requests;
  }

  /** Requests that arrived while a 429 they had been given was still running; a well-behaved bot keeps this empty. */
  get violations(): readonly Violation[] {
    return this.#state.limiter.violations;
  }

  /** The next `count` matching requests answer 429 (a path prefix after /api/v10, a RegExp or a predicate). Returns a cancel function. */
  force429(matcher: RouteMatcher, options: Force429Options): () => void {
    return this.#state.limiter.force(matcher, options);
  }

  /** Changes the global limit mid-test, e.g. to provoke a global 429. */
  setGlobalPerSecond(limit: number): void {
    this.#state.limiter.globalPerSecond = limit;
  }

  /** Makes every route of a channel answer an error (403 50001/50013, 404 10003, 5xx), or heals it with null. */
  failChannel(channelId: string, failure: ChannelFailure | null): void {
    if (failure === null) this.#state.failures.delete(channelId);
    else this.#state.failures.set(channelId, { ...failure });
  }

  /**
   * Holds every request on a channel's routes for `ms` (a stalled hop in front of Discord): each is
   * handled when the hold ends or the returned function releases it, and dropped unhandled if its
   * client gives up first (logged with status 499). Other channels are answered as usual.
   */
  holdChannel(channelId: string, ms: number): () => void {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hold = { until: Date.now() + ms, waiting: 0, released, release };
    this.#state.holds.set(channelId, hold);
    return () => {
      if (this.#state.holds.get(channelId) === hold) this.#state.holds.delete(channelId);
      release();
    };
  }

  /** Requests waiting on a channel's hold right now. */
  heldRequests(channelId: string): number {
    return this.#state.holds.get(channelId)?.waiting ?? 0;
  }

  /** Cuts the gateway connection so tests can prove the client resumes (or re-identifies with invalidateSession). */
  dropConnection(options: { code?: number; invalidateSession?: boolean } = {}): number {
    return this.#gateway.drop(options);
  }

  /** Gateway lifecycle log (connect, identify, resume, invalid-session, close). */
  get gatewayEvents(): readonly GatewayEvent[] {
    return this.#gateway.events;
  }

  /** Waits for a gateway event recorded after index `after` (default: from now on). */
  waitForGateway(
    kind: GatewayEvent['kind'],
    options: { after?: number; timeoutMs?: number } = {},
  ): Promise<GatewayEvent> {
    return this.#gateway.waitFor(kind, options.after ?? this.#gateway.events.length, options.timeoutMs ?? PATIENCE_MS);
  }

  /** The bot is removed from a guild: GUILD_DELETE without `unavailable`; its channels then answer 403 50001. */
  guildDelete(guildId: string): void {
    const guild = this.#state.guilds.get(guildId);
    if (!guild) throw new Error(`guildDelete: unknown guild ${guildId}`);
    guild.removed = true;
    this.#gateway.dispatch('GUILD_DELETE', { id: guildId });
  }

  /** The bot joins a guild while connected: GUILD_CREATE with its channels. */
  addGuild(config: FakeGuildConfig): void {
    const guild = this.#state.addGuild(config);
    this.#gateway.dispatch('GUILD_CREATE', guildPayload(this.#state, guild));
  }

  /**
   * Sets the Interactions Endpoint URL, as in the Developer Portal: from now on
   * interactions are POSTed there, signed with `privateKey` (Ed25519 over
   * timestamp + body), instead of going down the gateway. The HTTP answer is
   * the first response; null goes back to the gateway.
   */
  setInteractionsEndpoint(url: string | null, privateKey?: KeyObject): void {
    this.#endpoint = url === null ? undefined : { url, key: privateKey! };
  }

  /**
   * What Discord checks when the URL is saved: a signed PING gets PONG, and a
   * request with a bad signature gets 401. True when the endpoint passes both.
   */
  async verifyInteractionsEndpoint(): Promise<boolean> {
    const ping = JSON.stringify({
      id: snowflake(),
      application_id: this.applicationId,
      type: 1,
      token: 'ping',
      version: 1,
    });
    const good = await this.#post(ping);
    const pong = good.status === 200 && (JSON.parse(good.text || '{}') as { type?: unknown }).type === 1;
    const bad = await this.#post(ping, { tamper: true });
    return pong && bad.status === 401;
  }

  /** The shard of a guild's events for a shard count, as Discord computes it. */
  shardOf(guildId: string, shardCount: number): number {
    return shardOf(guildId, shardCount);
  }

  /** IDENTIFYs that broke the 5 s per max_concurrency bucket limit. */
  get identifyViolations(): number {
    return this.#gateway.identifyViolations;
  }

  /** [shard_id, num_shards] of each gateway session, in identify order. */
  get sessionShards(): [number, number][] {
    return this.#gateway.shards;
  }

  /** Stops the gateway and HTTP server and cuts every connection. */
  async close(): Promise<void> {
    await this.#gateway.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #commandInteraction(type: number, options: SendCommandOptions): BuiltInteraction {
    assertOffered(this.#state, options.name, options);
    const guildId = options.foreignGuildId
      ? undefined
      : (options.guildId ?? this.#state.channelGuild.get(options.channelId));
    const command = commandId(this.#state, options.name, guildId);
    const data: Record<string, unknown> = { id: command.id, name: options.name, type: 1 };
    if (options.options !== undefined) data['options'] = options.options;
    if (command.guildCommand && guildId !== undefined) data['guild_id'] = guildId;
    const roles = this.#resolvedRoles(options.options ?? [], guildId);
    // A command in the bot's DM: that channel is the one DM between the bot and this user.
    if (guildId === undefined && options.foreignGuildId === undefined && (options.context ?? 1) === 1) {
      this.#state.dmChannels.add(options.channelId);
      this.#state.dmUsers.set(options.channelId, (options.user ?? DEFAULT_USER).id);
    }
    if (roles) data['resolved'] = { roles };
    return buildInteraction(this.#state, type, options, data, { commandName: options.name });
  }

  /** Role options (type 8) come with the role itself in `resolved.roles`, as Discord sends them. */
  #resolvedRoles(options: readonly unknown[], guildId: string | undefined): Record<string, unknown> | undefined {
    const guild = guildId === undefined ? undefined : this.#state.guilds.get(guildId);
    const ids = (options as { type?: number; value?: unknown; options?: unknown[] }[]).flatMap((o) =>
      o.type === 8 ? [String(o.value)] : [],
    );
    if (!guild || ids.length === 0) return undefined;
    const out: Record<string, unknown> = {};
    for (const id of ids) {
      const role = guild.roles.find((r) => r.id === id);
      if (!role) throw new Error(`role ${id} is not a role of guild ${guild.id}`);
      out[id] = { ...rolePayload(role, 1), permissions: '0' };
    }
    return out;
  }

  #dispatch(built: BuiltInteraction): InteractionHandle {
    const { record, payload } = built;
    this.#state.interactions.set(record.id, record);
    this.#state.interactionsByToken.set(record.token, record);
    if (this.#endpoint) void this.#deliverOverHttp(record.id, record.token, payload);
    else this.#gateway.dispatch('INTERACTION_CREATE', payload);
    return new InteractionHandle(this.#state, record);
  }

  async #post(body: string, o: { tamper?: boolean } = {}): Promise<{ status: number; text: string }> {
    const endpoint = this.#endpoint;
    if (!endpoint) throw new Error('no interactions endpoint set');
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(timestamp + body), endpoint.key);
    if (o.tamper) signature.writeUInt8(signature.readUInt8(0) ^ 0xff, 0);
    try {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-signature-ed25519': signature.toString('hex'),
          'x-signature-timestamp': timestamp,
        },
        body,
        signal: AbortSignal.timeout(this.#state.interactionAckTimeoutMs),
      });
      return { status: res.status, text: await res.text() };
    } catch {
      return { status: 0, text: '' };
    }
  }

  /** Discord's side of an HTTP interaction: the answer to the POST is taken as the callback. */
  async #deliverOverHttp(id: string, token: string, payload: Record<string, unknown>): Promise<void> {
    const { status, text } = await this.#post(JSON.stringify(payload));
    this.interactionPosts.push({ id, status });
    if (status !== 200) return;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    await interactionCallback({
      state: this.#state,
      method: 'POST',
      path: `/interactions/${id}/${token}/callback`,
      params: { interactionId: id, token },
      query: new URLSearchParams(),
      body,
      list: undefined,
      files: [],
      now: Date.now(),
    });
  }
}

/** Gateway intents as Discord numbers them. */
const GUILD_MESSAGES = 1 << 9;
const DIRECT_MESSAGES = 1 << 12;
const MESSAGE_CONTENT = 1 << 15;

/** Starts the fake on a free 127.0.0.1 port. */
export async function startDiscordFake(options: DiscordFakeOptions = {}): Promise<DiscordFake> {
  const state = new FakeState(options);
  const server = createServer({ keepAliveTimeout: 5000 }, createHandler(state));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  const gateway = new Gateway(state, server);
  return new DiscordFake(state, server, gateway);
}
