// Gateway and REST object shapes complete enough for discord.js 14 to build its
// structures (Guild, TextChannel, GuildMember, the interaction classes) without gaps.
import type { FakeState, GuildState } from './state.ts';
import type { FakeUser } from './types.ts';
import type { FakeRole } from './mentions.ts';
import type { FakeChannel } from './state.ts';

const bit = (n: number): bigint => 1n << BigInt(n);

/** What a plain member may do: view, send, embed, attach, read history, use commands. */
export const DEFAULT_MEMBER_PERMISSIONS = (bit(10) | bit(11) | bit(14) | bit(15) | bit(16) | bit(31)).toString();

/** What the bot holds: the member set plus manage messages. */
export const DEFAULT_APP_PERMISSIONS = (BigInt(DEFAULT_MEMBER_PERMISSIONS) | bit(13)).toString();

export function userPayload(user: FakeUser): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: user.global_name ?? null,
    avatar: null,
    public_flags: 0,
    avatar_decoration_data: null,
  };
}

export function memberPayload(user: Record<string, unknown>, joinedAt: string, permissions?: string) {
  const member: Record<string, unknown> = {
    user,
    nick: null,
    avatar: null,
    roles: [],
    joined_at: joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  };
  if (permissions !== undefined) member['permissions'] = permissions;
  return member;
}

/** REQUIRE_TAG: a forum post must carry one of the forum's tags. */
export const FORUM_REQUIRE_TAG = 1 << 4;

export const isThread = (c: FakeChannel) => c.type === 11;

export function channelPayload(guildId: string, channel: FakeChannel, position: number) {
  const type = channel.type ?? 0;
  const base = {
    id: channel.id,
    type,
    guild_id: guildId,
    name: channel.name,
    last_message_id: null,
    rate_limit_per_user: 0,
    parent_id: channel.parentId ?? null,
    flags: type === 15 && channel.requireTag ? FORUM_REQUIRE_TAG : 0,
  };
  if (type === 11)
    return {
      ...base,
      owner_id: '1000000000000000001',
      thread_metadata: {
        archived: !!channel.archived,
        locked: !!channel.locked,
        auto_archive_duration: 1440,
        archive_timestamp: new Date(0).toISOString(),
      },
      message_count: 0,
      member_count: 1,
      applied_tags: [],
    };
  return {
    ...base,
    position,
    permission_overwrites: [],
    topic: null,
    nsfw: false,
    ...(type === 15
      ? {
          available_tags: (channel.tags ?? []).map((t) => ({
            id: t.id,
            name: t.name,
            moderated: false,
            emoji_id: null,
            emoji_name: null,
          })),
          default_reaction_emoji: null,
          default_sort_order: null,
          default_forum_layout: 0,
        }
      : {}),
  };
}

export function guildPayload(state: FakeState, guild: GuildState): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: '1000000000000000001',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    nsfw_level: 0,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    preferred_locale: guild.locale,
    vanity_url_code: null,
    application_id: null,
    max_members: 500000,
    max_video_channel_users: 25,
    features: [],
    roles: [
      {
        id: guild.id,
        name: '@everyone',
        color: 0,
        colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
        hoist: false,
        icon: null,
        unicode_emoji: null,
        position: 0,
        permissions: DEFAULT_APP_PERMISSIONS,
        managed: false,
        mentionable: false,
        flags: 0,
      },
      ...guild.roles.map((r, i) => rolePayload(r, i + 1)),
    ],
    emojis: [],
    stickers: [],
    joined_at: guild.joinedAt,
    large: false,
    unavailable: false,
    member_count: 2,
    voice_states: [],
    members: [memberPayload(state.botUser(), guild.joinedAt)],
    channels: guild.channels.filter((c) => !isThread(c)).map((c, i) => channelPayload(guild.id, c, i)),
    // Only active threads come with GUILD_CREATE, as on Discord.
    threads: guild.channels.filter((c) => isThread(c) && !c.archived).map((c, i) => channelPayload(guild.id, c, i)),
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    lazy: true,
  };
}

export function readyPayload(
  state: FakeState,
  sessionId: string,
  shard: [number, number] = [0, 1],
): Record<string, unknown> {
  return {
    v: 10,
    user: state.botUser(),
    user_settings: {},
    guilds: state
      .activeGuilds()
      .filter((g) => shardOf(g.id, shard[1]) === shard[0])
      .map((g) => ({ id: g.id, unavailable: true })),
    session_id: sessionId,
    session_type: 'normal',
    resume_gateway_url: state.origin.replace(/^http/, 'ws'),
    shard,
    application: { id: state.applicationId, flags: 0 },
    private_channels: [],
    relationships: [],
    presences: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    _trace: ['["fake-gateway",{"micros":0}]'],
  };
}

export function applicationPayload(state: FakeState): Record<string, unknown> {
  return {
    id: state.applicationId,
    name: state.botUsername,
    icon: null,
    description: '',
    summary: '',
    type: null,
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: 0,
    hook: true,
    is_monetized: false,
    owner: {
      id: '1000000000000000001',
      username: 'owner',
      discriminator: '0',
      global_name: null,
      avatar: null,
      public_flags: 0,
    },
    team: null,
    bot: state.botUser(),
    approximate_guild_count: state.activeGuilds().length,
    integration_types_config: { '0': {} },
    install_params: { scopes: ['bot', 'applications.commands'], permissions: DEFAULT_APP_PERMISSIONS },
  };
}

/** The shard a guild's events go to, as Discord computes it: (guild_id >> 22) % shard_count. */
export function shardOf(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

export function rolePayload(r: FakeRole, position: number): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions: '0',
    managed: false,
    mentionable: r.mentionable,
    flags: 0,
  };
}

/** Mention Everyone: also lets the holder ping roles that are not mentionable. */
export const MENTION_EVERYONE = bit(17);

/** The bot's permissions in a guild's channel, as `app_permissions` says. */
export function appPermissions(guild: GuildState | undefined): string {
  return guild?.botMentionsEveryone
    ? (BigInt(DEFAULT_APP_PERMISSIONS) | MENTION_EVERYONE).toString()
    : DEFAULT_APP_PERMISSIONS;
}
