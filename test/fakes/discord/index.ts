// A protocol-faithful Discord (REST v10 + gateway) on 127.0.0.1 for tests and benchmarks,
// driven by the real discord.js client. See README.md next to this file.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gateway } from './gateway.ts';
import {
  APPLICATION_COMMAND,
  AUTOCOMPLETE,
  buildInteraction,
  commandId,
  InteractionHandle,
  MESSAGE_COMPONENT,
} from './interactions.ts';
import type { BuiltInteraction } from './interactions.ts';
import { guildPayload } from './payloads.ts';
import { createHandler } from './server.ts';
import { FakeState } from './state.ts';
import type { StoredCommand } from './state.ts';
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
  RouteMatcher,
  SendCommandOptions,
  Violation,
} from './types.ts';

export type * from './types.ts';
export type { StoredCommand } from './state.ts';
export { InteractionHandle } from './interactions.ts';
export type { WaitTarget } from './interactions.ts';
export { snowflake } from './ids.ts';
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

  /** A user types into an autocomplete option (exactly one option marked `focused`). */
  async sendAutocomplete(options: SendCommandOptions): Promise<InteractionHandle> {
    if (!hasFocused(options.options)) throw new Error('sendAutocomplete needs one option with focused: true');
    return this.#dispatch(this.#commandInteraction(AUTOCOMPLETE, options));
  }

  /** A user clicks a button on a message the bot produced; refuses buttons that are absent or disabled, as Discord's UI would. */
  async clickButton(options: ClickButtonOptions): Promise<InteractionHandle> {
    const message = this.#state.messages.byId.get(options.message.id);
    if (!message || message.deleted) throw new Error(`clickButton: message ${options.message.id} was not produced by the bot`);
    const button = findButton(message.components, options.customId);
    if (!button && !options.forged) throw new Error(`clickButton: message ${message.id} has no button ${options.customId}`);
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

  /** Messages the bot created with POST /channels/:id/messages, in order (deleted ones flagged). */
  channelMessages(channelId: string): FakeMessage[] {
    return [...(this.#state.messages.byChannel.get(channelId) ?? [])];
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

  /** Cuts the gateway connection so tests can prove the client resumes (or re-identifies with invalidateSession). */
  dropConnection(options: { code?: number; invalidateSession?: boolean } = {}): number {
    return this.#gateway.drop(options);
  }

  /** Gateway lifecycle log (connect, identify, resume, invalid-session, close). */
  get gatewayEvents(): readonly GatewayEvent[] {
    return this.#gateway.events;
  }

  /** Waits for a gateway event recorded after index `after` (default: from now on). */
  waitForGateway(kind: GatewayEvent['kind'], options: { after?: number; timeoutMs?: number } = {}): Promise<GatewayEvent> {
    return this.#gateway.waitFor(kind, options.after ?? this.#gateway.events.length, options.timeoutMs ?? 5000);
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

  /** Stops the gateway and HTTP server and cuts every connection. */
  async close(): Promise<void> {
    await this.#gateway.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #commandInteraction(type: number, options: SendCommandOptions): BuiltInteraction {
    const guildId = options.guildId ?? this.#state.channelGuild.get(options.channelId);
    const command = commandId(this.#state, options.name, guildId);
    const data: Record<string, unknown> = { id: command.id, name: options.name, type: 1 };
    if (options.options !== undefined) data['options'] = options.options;
    if (command.guildCommand && guildId !== undefined) data['guild_id'] = guildId;
    return buildInteraction(this.#state, type, options, data, { commandName: options.name });
  }

  #dispatch(built: BuiltInteraction): InteractionHandle {
    const { record, payload } = built;
    this.#gateway.dispatch('INTERACTION_CREATE', payload);
    this.#state.interactions.set(record.id, record);
    this.#state.interactionsByToken.set(record.token, record);
    return new InteractionHandle(this.#state, record);
  }
}

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
