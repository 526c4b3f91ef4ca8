/**
 * The contract every file in `commands/` fulfils: `export default { ... } satisfies Command<typeof options>`.
 * A command sees only this context, never a chat library, so the same file
 * serves Discord, Telegram and the terminal.
 */
import type { Logger } from 'pino';
import type { KolClient } from '../api/index.ts';
import type { Locale, T } from '../i18n/index.ts';
import type { Store } from '../store/index.ts';
import type { Outbox } from '../store/outbox.ts';
import type { ChartPool } from '../domain/charts.ts';
import type { View } from '../domain/view.ts';
import type { Input, OptionsShape } from './options.ts';
import type { LinkSet } from '../domain/links.ts';
import type { MemberRef } from '../store/calls.ts';
import type { KolMemo } from './kolMemo.ts';

export type Platform = 'discord' | 'telegram' | 'console';

export interface Caller {
  readonly platform: Platform;
  /** Platform user id, as a string (Discord snowflakes and Telegram ids exceed 2^53 or may). */
  readonly userId: string;
  /** Where the answer goes: a Discord channel, a Telegram chat, the terminal. */
  readonly chatId: string;
  /**
   * The forum topic it was asked in (Telegram `message_thread_id` of a topic message; never
   * a reply thread, never the General topic): the answer goes there, and chat settings
   * (/subscribe, /digest, /alerts quiet, /autocard, /language) are the topic's. Absent: the chat.
   */
  readonly threadId?: string;
  readonly chatType: 'private' | 'group' | 'channel';
  /**
   * The caller's app language as the platform tells it (Discord `locale`,
   * Telegram `language_code`, the terminal's LANG or --lang); absent when unknown.
   */
  readonly locale?: string;
  /**
   * The server the chat belongs to: a Discord server's id; on Telegram the group itself.
   * Absent in private chats. Server bans and the per-server quota read it.
   */
  readonly serverId?: string;
  /** The chat's name as the platform shows it (a group's title, a channel's name), when known. */
  readonly chatName?: string;
  /** The Discord server's language (its Community setting, en-US otherwise): alerts there start in it. */
  readonly guildLocale?: string;
  /**
   * The chat a message was posted as (Telegram's anonymous group admins and
   * posts as a channel all come from one shared user): the rate limit counts it
   * instead of that user.
   */
  readonly senderChatId?: string;
  /**
   * The server's roles as the bot may mention them (Discord): whether a role picked in an option
   * lets anyone mention it, and whether the bot may mention any role (Mention Everyone). Absent
   * where the platform has no roles.
   */
  readonly roles?: {
    readonly role: (id: string) => { readonly name: string; readonly mentionable: boolean } | undefined;
    readonly botMentionsEveryone: boolean;
  };
  /**
   * Asked in a post of a forum (a Discord forum channel; `chatId` is the forum, `threadId` the
   * post): the forum's tags, and whether each post needs one.
   */
  readonly forum?: {
    readonly tags: readonly { readonly id: string; readonly name: string }[];
    readonly requiresTag: boolean;
  };
  /**
   * The bot is not a member of this server (a Discord app the user installed, used in someone
   * else's server): lookups run, but nothing can be posted here, so chat settings are refused.
   */
  readonly botAbsent?: true;
  /** The kind of channel asked in, where the platform has kinds (a Discord announcement channel may publish). */
  readonly channelKind?: 'text' | 'announcement' | 'thread';
  /**
   * Sends `text` to the caller as a real direct message, where the answer to a command in a
   * DM is not one (a Discord interaction reply): false when the platform refuses to deliver
   * DMs to them, so personal alerts that could never arrive are refused at once.
   */
  readonly confirmPrivately?: (text: string) => Promise<boolean>;
  /** May this caller change the chat's settings? Asked lazily: it can cost a platform call. */
  canManage(): Promise<boolean>;
  /**
   * May this caller change another chat's settings (an admin opening a group's
   * settings panel in their private chat with the bot)? Absent where the platform has no such thing.
   */
  canManageChat?(chatId: string): Promise<boolean>;
  /** The person asking, as a call credits them; absent for bots, anonymous admins and posts as a channel. */
  readonly member?: MemberRef;
  /** The author of the message this command answers (a Telegram reply), for /stats. */
  readonly repliedTo?: MemberRef;
}

/** What the platform can show, so a command can skip work it cannot display. */
export interface Capabilities {
  readonly pictures: boolean;
  readonly buttons: boolean;
  /**
   * Does the bot see ordinary messages in group chats here (Telegram privacy
   * mode off or bot an admin, Discord Message Content intent)? Asked lazily:
   * it can cost a platform call. Absent where it does not apply. `/autocard`
   * explains what to change when it does not.
   */
  readonly readsAllMessages?: () => Promise<boolean>;
  /**
   * A link that opens the caller's private chat with the bot and starts it with
   * `payload` (Telegram's deep link: at most 64 of [A-Za-z0-9_-]). Absent where there is none.
   */
  readonly privateLink?: (payload: string) => string;
}

export interface CommandContext {
  readonly api: KolClient;
  readonly store: CommandStore;
  readonly caller: Caller;
  /** The language of this answer: the chat's /language setting, else the caller's, else English. */
  readonly locale: Locale;
  /** The catalogue bound to `locale`: every word a user reads comes from it. */
  readonly t: T;
  readonly capabilities: Capabilities;
  /** Aborted when the platform stops waiting (Discord's interaction window) or at shutdown. */
  readonly signal: AbortSignal;
  /** Milliseconds the upstream may take in all, retries included. */
  readonly budgetMs: number;
  /** Every loaded command, for `/help`. */
  readonly commands: ReadonlyMap<string, AnyCommand>;
  readonly log: Logger;
  readonly now: () => number;
  /** KOL names resolved recently (core/resolve.ts), one per dispatcher, expiring on `now`. */
  readonly kolMemo: KolMemo;
  /** Where pictures are drawn, off the event loop. */
  readonly charts: ChartPool;
  /** Asks alert delivery to run soon (after `/alerts test`); absent when no watcher runs. */
  readonly kickAlerts?: () => void;
  /** Chart, trading and safety links for token cards (the operator's LINKS_*); absent: the defaults. */
  readonly links?: LinkSet;
  /** Subscriptions one server and one person may hold (OWNER_MAX_SUBSCRIPTIONS_*); absent: no limit. */
  readonly quotas?: Quotas;
  /** The public community pages' base URL (/web), once they are served; absent or undefined: not served. */
  readonly webUrl?: () => string | undefined;
  /** Only for an owner's /owner in a private chat (core/owner.ts); absent for everyone else. */
  readonly owner?: OwnerTools;
}

export interface Quotas {
  readonly perServer?: number;
  readonly perPerson?: number;
}

/** What the owner's console reaches beyond a command's context: every destination, and this process's figures. */
export interface OwnerTools {
  readonly store: Store;
  /** The owner running the command, as platform:userId. */
  readonly self: string;
  /** Upstream requests per operation in the last hour, and this instance's roles. */
  runtime(): RuntimeFigures;
  /** Every instance running on this store, and its roles (each beats into the store). */
  instances(): Promise<readonly { readonly id: string; readonly roles: Readonly<Record<string, unknown>> }[]>;
  /** Starts alert delivery at once (a notice just queued); absent when no watcher runs. */
  readonly kick?: () => void;
}

export interface RuntimeFigures {
  readonly upstreamLastHour: Readonly<Record<string, number>>;
  readonly instance: string;
  readonly roles: Readonly<Record<string, unknown>>;
}

/**
 * The parts of the store a command reaches: chat settings and what it reads.
 * The outbox only to queue through the alerts layer (a test alert, a digest
 * now); button pages, leases and claims belong to the core and the watcher.
 */
export type CommandStore = Pick<
  Store,
  'subscriptions' | 'languages' | 'calls' | 'members' | 'watch' | 'autocard' | 'topics' | 'web'
> & {
  readonly outbox: Pick<Outbox, 'enqueue' | 'get'>;
};

/** Raw option values before validation: text gives strings, Discord typed values. */
export type RawArgs = Record<string, unknown>;

/**
 * A command file's default export. It carries no English: its one-line description
 * and its options' are the catalogue's (`commands.<name>`, `options.<name>.<option>`),
 * which the registry checks at start and hands out with it (AnyCommand).
 */
export interface Command<O extends OptionsShape = OptionsShape> {
  /** 1-32 of [a-z0-9_]: valid on Discord and Telegram alike. */
  readonly name: string;
  readonly options: O;
  /** Typed exactly as a user would, first one shown in `/help`. */
  readonly examples: readonly [string, ...string[]];
  /** Changes chat settings: only channel managers and group admins may run it. */
  readonly requires?: 'manage';
  /**
   * Reads or changes this chat's own settings (alerts, automatic cards): it only
   * makes sense where the bot is a member. Lookups (the default) also run where
   * it is not: Discord user installs and DMs.
   */
  readonly chatSettings?: true;
  /** A chat setting a person may also set for themselves in a DM with the bot (personal alerts). */
  readonly personal?: true;
  /**
   * Who a group's command menu shows it to: 'members' everyone, 'admins' the group's admins
   * (with the others). Absent: 'admins' for chat-settings commands, 'members' for lookups.
   */
  readonly audience?: 'members' | 'admins';
  /**
   * Rewrites raw text arguments before validation, for conveniences that depend
   * on several options at once (`/token <address>` infers the chain).
   */
  readonly normalize?: (raw: RawArgs) => RawArgs;
  run(input: Input<O>, ctx: CommandContext): Promise<View>;
}

/** Who a group's menu shows the command to (see Command.audience). */
export function audienceOf(c: Pick<Command, 'audience' | 'chatSettings'>): 'members' | 'admins' {
  return c.audience ?? (c.chatSettings ? 'admins' : 'members');
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds commands of every option shape; `run`'s input is contravariant, so `unknown` would not accept them.
export type SomeCommand = Command<any>;

/**
 * A command as the registry holds it (registry.ts): its file, with its English
 * texts from the catalogue, each 1-100 characters (Discord's limit). Other
 * languages are read from the catalogue where they are shown (i18n commandDescription).
 */
export type AnyCommand = SomeCommand & {
  /** One line. */
  readonly description: string;
  /** A line per option a user can set (internal options have none). */
  readonly optionTexts: Readonly<Record<string, string>>;
};
