// Shapes shared by the Discord fake's parts and by the tests that drive it.

export interface BucketSpec {
  limit: number;
  windowMs: number;
}

/**
 * A channel of a guild. Types as Discord numbers them: 0 text, 5 announcement,
 * 11 public thread (with `parentId`), 15 forum.
 */
export interface FakeChannelConfig {
  id: string;
  name?: string;
  type?: 0 | 5 | 11 | 15;
  /** A thread's channel, or a forum post's forum. */
  parentId?: string;
  /** A thread: archived (a message from a sender allowed to post unarchives it) and locked (then 50083). */
  archived?: boolean;
  locked?: boolean;
  /** A forum's tags, and whether a post needs one (flag REQUIRE_TAG). */
  tags?: { id: string; name: string }[];
  requireTag?: boolean;
}

export interface FakeGuildConfig {
  id: string;
  name?: string;
  channels: FakeChannelConfig[];
  /** The server's roles besides @everyone. */
  roles?: { id: string; name?: string; mentionable?: boolean }[];
  /** The bot's role has Mention Everyone (it may then ping roles that are not mentionable). */
  botMentionsEveryone?: boolean;
  /** The server's language (Server Settings > Community > Server Primary Language); default en-US. */
  locale?: string;
}

export interface DiscordFakeOptions {
  token?: string;
  applicationId?: string;
  botUserId?: string;
  botUsername?: string;
  guilds?: FakeGuildConfig[];
  /** Global bot limit; interaction callbacks are exempt (default 50). */
  globalPerSecond?: number;
  /** Bucket for message creation, one per channel (default 5 per 5 s). */
  channelBucket?: BucketSpec;
  /** Bucket for every other bot or webhook route, one per route and major id (default 50 per 1 s). */
  routeBucket?: BucketSpec;
  /** Gateway heartbeat interval announced in HELLO (default 41250 ms, as Discord). */
  heartbeatIntervalMs?: number;
  /** How long a callback may take before Discord answers 10062 Unknown interaction (default 3000). */
  interactionAckTimeoutMs?: number;
  /** How long an interaction token stays valid for webhooks (default 15 min). */
  interactionTokenTtlMs?: number;
  /** How long an enforced nonce is remembered (default 5 min). */
  nonceWindowMs?: number;
  /** Delay added before every HTTP answer, to imitate network latency in benchmarks (default 0). */
  responseDelayMs?: number;
  /** GET /gateway/bot's `shards`, the count Discord recommends (default 1). */
  recommendedShards?: number;
  /** GET /gateway/bot's `session_start_limit.max_concurrency` (default 1). */
  maxConcurrency?: number;
  /** Sessions left today; each IDENTIFY uses one (default 1000). */
  sessionStartRemaining?: number;
  /**
   * The developer portal's Message Content switch (default false). Identifying with the
   * MESSAGE_CONTENT intent (1 << 15) while it is off closes the gateway with 4014, as Discord does.
   */
  messageContentIntent?: boolean;
  /** The clock of the hourly crosspost limit (default Date.now), so a test can let an hour pass. */
  clock?: () => number;
  /** Users whose DMs are closed to the bot (privacy settings, no shared server): sending there answers 403 50007. */
  closedDms?: string[];
}

export interface FakeAttachment {
  id: string;
  filename: string;
  size: number;
  content_type?: string;
  description?: string;
  url: string;
  /** The bytes the bot uploaded. */
  data: Buffer;
}

/** A message as the fake holds it: API fields plus what only the request carried. */
export interface FakeMessage {
  id: string;
  type: number;
  channel_id: string;
  guild_id?: string;
  content: string;
  embeds: Record<string, unknown>[];
  components: Record<string, unknown>[];
  attachments: FakeAttachment[];
  flags: number;
  nonce?: string | number;
  enforce_nonce?: boolean;
  allowed_mentions?: unknown;
  message_reference?: unknown;
  /** Who this message notified (mentions.ts): what a member would hear. */
  notified: import('./mentions.ts').Notified;
  /** Published to following channels (POST .../crosspost). */
  crossposted: boolean;
  tts: boolean;
  timestamp: string;
  edited_timestamp: string | null;
  webhook_id?: string;
  application_id?: string;
  interaction_metadata?: Record<string, unknown>;
  /** How the bot produced it. */
  source: 'channel' | 'interaction' | 'followup';
  /** Number of edits received. */
  edits: number;
  /** What the message showed, in order: as created, then after each edit (embed titles and descriptions, content). */
  shown: string[];
  deleted: boolean;
}

export interface RequestLogEntry {
  method: string;
  /** Decoded path after /api/v10, e.g. /webhooks/1/tok/messages/@original. */
  path: string;
  /** Route template, e.g. /channels/:channelId/messages. */
  route: string;
  status: number;
  /** Epoch ms at arrival. */
  at: number;
}

export type RateLimitScope = 'global' | 'bucket' | 'forced';

export interface Violation {
  method: string;
  path: string;
  route: string;
  at: number;
  scope: RateLimitScope;
  /** When the 429 window that this request ignored ends. */
  windowEndsAt: number;
}

export interface RequestInfo {
  method: string;
  path: string;
  route: string;
}

export type RouteMatcher = string | RegExp | ((req: RequestInfo) => boolean);

export interface Force429Options {
  /** How many matching requests answer 429 (Infinity for a storm until cancelled). */
  count: number;
  retryAfterMs: number;
  global?: boolean;
}

export interface ChannelFailure {
  status: number;
  code?: number;
  message?: string;
  /** Fail only the next N requests (default: until cleared). */
  times?: number;
}

export interface CallbackRecord {
  type: number;
  data: Record<string, unknown> | undefined;
  /** Milliseconds since the interaction was dispatched. */
  atMs: number;
}

export interface FakeUser {
  id: string;
  username: string;
  global_name?: string | null;
}

export interface CommandOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  focused?: boolean;
  options?: CommandOption[];
}

export interface InteractionTarget {
  channelId: string;
  guildId?: string;
  user?: FakeUser;
  /** Member permission bitfield as a decimal string. */
  memberPermissions?: string;
  /** Bot permission bitfield in that channel as a decimal string. */
  appPermissions?: string;
  locale?: string;
  /** Who installed the app for this interaction: the guild (default) or the user (user install). */
  install?: 'guild' | 'user';
  /** A guild the bot is not a member of (user install only): the interaction names it, the bot knows nothing else. */
  foreignGuildId?: string;
  /** Interaction context: 0 guild, 1 the bot's DM, 2 a private channel (group DM); derived when absent. */
  context?: 0 | 1 | 2;
  /** The server lets external (user-installed) apps reply publicly (default true); false makes Discord force replies ephemeral. */
  externalAppsPublic?: boolean;
}

/** A message a user posted, as the bot would see it. */
export interface PostMessageOptions {
  channelId: string;
  content: string;
  author?: FakeUser;
  /** Posted by another bot (author.bot). */
  authorIsBot?: boolean;
  /** The message @mentions the bot. */
  mentionsBot?: boolean;
}

export interface SendMessageCommandOptions extends InteractionTarget {
  /** The message command's registered name, e.g. "Token card". */
  name: string;
  /** The message right-clicked; any channel message, the bot's or a user's. */
  target: { id?: string; content: string; author?: FakeUser };
}

export interface SendCommandOptions extends InteractionTarget {
  name: string;
  options?: CommandOption[];
}

export interface ClickButtonOptions extends Omit<InteractionTarget, 'channelId'> {
  customId: string;
  /** A message the bot produced (a FakeMessage or anything with its id). */
  message: { id: string };
  channelId?: string;
  /** A modified client: sends the custom id even though the message has no such button. */
  forged?: boolean;
}

export interface GatewayEvent {
  kind: 'connect' | 'identify' | 'resume' | 'invalid-session' | 'heartbeat' | 'close';
  at: number;
  code?: number;
}
