import { botToken, snowflake } from './ids.ts';
import { MessageStore } from './messages.ts';
import { RateLimiter } from './ratelimit.ts';
import type {
  BucketSpec,
  ChannelFailure,
  DiscordFakeOptions,
  FakeChannelConfig,
  FakeGuildConfig,
  RequestLogEntry,
} from './types.ts';
import type { FakeRole } from './mentions.ts';

/** A channel as the fake holds it: its config with a name always set. */
export type FakeChannel = FakeChannelConfig & { name: string };
import type { InteractionRecord } from './interactions.ts';

export interface GuildState {
  id: string;
  name: string;
  channels: FakeChannel[];
  roles: FakeRole[];
  botMentionsEveryone: boolean;
  /** Set once GUILD_DELETE went out: the bot is no longer a member. */
  removed: boolean;
  joinedAt: string;
  /** preferred_locale in GUILD_CREATE, guild_locale in its interactions. */
  locale: string;
}

export interface StoredCommand extends Record<string, unknown> {
  id: string;
  name: string;
}

/** Everything the HTTP side and the gateway side of the fake share. */
/** A channel's requests wait until `until` (or release); `waiting` counts the ones held right now. */
export interface ChannelHold {
  until: number;
  waiting: number;
  released: Promise<void>;
  release: () => void;
}

export class FakeState {
  readonly token: string;
  readonly applicationId: string;
  readonly botUserId: string;
  readonly botUsername: string;
  readonly channelBucket: BucketSpec;
  readonly routeBucket: BucketSpec;
  readonly heartbeatIntervalMs: number;
  readonly interactionAckTimeoutMs: number;
  readonly interactionTokenTtlMs: number;
  readonly responseDelayMs: number;
  readonly limiter: RateLimiter;
  readonly messages: MessageStore;
  readonly guilds = new Map<string, GuildState>();
  /** Channel id -> guild id, kept for every channel ever configured (removed guilds too). */
  readonly channelGuild = new Map<string, string>();
  readonly #channels = new Map<string, FakeChannel>();
  /** Key 'global' or a guild id. */
  readonly commands = new Map<string, StoredCommand[]>();
  readonly interactions = new Map<string, InteractionRecord>();
  readonly interactionsByToken = new Map<string, InteractionRecord>();
  readonly failures = new Map<string, ChannelFailure>();
  /** Channels whose requests are held (holdChannel): each open hold, and the requests waiting on it now. */
  readonly holds = new Map<string, ChannelHold>();
  readonly requests: RequestLogEntry[] = [];
  /** http://127.0.0.1:PORT once listening. */
  origin = '';
  readonly recommendedShards: number;
  readonly maxConcurrency: number;
  sessionStartRemaining: number;
  /** The portal's Message Content switch. */
  readonly messageContentIntent: boolean;
  /** DM channels a user wrote in, so the bot may answer there. */
  readonly dmChannels = new Set<string>();
  /** DM channel id -> its user, for channels opened with POST /users/@me/channels. */
  readonly dmUsers = new Map<string, string>();
  readonly closedDms: Set<string>;
  readonly clock: () => number;
  /** Crossposts per announcement channel in its current hour: when the hour began and how many. */
  readonly crossposts = new Map<string, { since: number; count: number }>();
  /** A forum post's tags, by thread id. */
  readonly threadTags = new Map<string, string[]>();
  /** Crossposts refused with a 429 (a well-behaved bot keeps this at 0). */
  crosspost429s = 0;

  constructor(options: DiscordFakeOptions) {
    this.applicationId = options.applicationId ?? snowflake();
    this.botUserId = options.botUserId ?? this.applicationId;
    this.botUsername = options.botUsername ?? 'kolradar-fake-bot';
    this.token = options.token ?? botToken(this.botUserId);
    this.channelBucket = options.channelBucket ?? { limit: 5, windowMs: 5000 };
    this.routeBucket = options.routeBucket ?? { limit: 50, windowMs: 1000 };
    this.messageContentIntent = options.messageContentIntent ?? false;
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? 41250;
    this.interactionAckTimeoutMs = options.interactionAckTimeoutMs ?? 3000;
    this.interactionTokenTtlMs = options.interactionTokenTtlMs ?? 15 * 60 * 1000;
    this.responseDelayMs = options.responseDelayMs ?? 0;
    this.recommendedShards = options.recommendedShards ?? 1;
    this.maxConcurrency = options.maxConcurrency ?? 1;
    this.sessionStartRemaining = options.sessionStartRemaining ?? 1000;
    this.limiter = new RateLimiter(options.globalPerSecond ?? 50);
    this.messages = new MessageStore(options.nonceWindowMs ?? 5 * 60 * 1000);
    this.clock = options.clock ?? Date.now;
    this.closedDms = new Set(options.closedDms ?? []);
    for (const guild of options.guilds ?? []) this.addGuild(guild);
  }

  addGuild(config: FakeGuildConfig): GuildState {
    const guild: GuildState = {
      id: config.id,
      name: config.name ?? `guild-${config.id}`,
      channels: config.channels.map((c) => ({ ...c, name: c.name ?? `channel-${c.id}` })),
      roles: (config.roles ?? []).map((r) => ({
        id: r.id,
        name: r.name ?? `role-${r.id}`,
        mentionable: !!r.mentionable,
      })),
      botMentionsEveryone: config.botMentionsEveryone ?? false,
      removed: false,
      joinedAt: new Date().toISOString(),
      locale: config.locale ?? 'en-US',
    };
    this.guilds.set(guild.id, guild);
    for (const channel of guild.channels) this.#index(guild, channel);
    return guild;
  }

  #index(guild: GuildState, channel: FakeChannel): void {
    this.channelGuild.set(channel.id, guild.id);
    this.#channels.set(channel.id, channel);
  }

  /** A thread made while running (a forum post): a channel of the guild from now on. */
  addThread(guild: GuildState, thread: FakeChannel): void {
    guild.channels.push(thread);
    this.#index(guild, thread);
  }

  activeGuilds(): GuildState[] {
    return [...this.guilds.values()].filter((g) => !g.removed);
  }

  /** The channel and its guild, or why Discord would refuse to touch it. */
  lookupChannel(
    channelId: string,
  ):
    | { ok: true; guild: GuildState; channel: FakeChannel }
    | { ok: false; status: number; code: number; message: string } {
    const guildId = this.channelGuild.get(channelId);
    const guild = guildId === undefined ? undefined : this.guilds.get(guildId);
    const channel = this.#channels.get(channelId);
    if (!guild || !channel) return { ok: false, status: 404, code: 10003, message: 'Unknown Channel' };
    if (guild.removed) return { ok: false, status: 403, code: 50001, message: 'Missing Access' };
    return { ok: true, guild, channel };
  }

  botUser(): Record<string, unknown> {
    return {
      id: this.botUserId,
      username: this.botUsername,
      discriminator: '0',
      global_name: null,
      avatar: null,
      bot: true,
      system: false,
      mfa_enabled: false,
      verified: true,
      flags: 0,
      public_flags: 0,
      banner: null,
      accent_color: null,
      avatar_decoration_data: null,
    };
  }
}
