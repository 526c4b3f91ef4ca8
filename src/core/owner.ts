/**
 * Who the owners are and who is banned, as the front doors ask it. Owners are
 * named in configuration only (OWNER_IDS); their console answers in a private
 * chat alone, and to anyone else `/owner` is an unknown command, word for word.
 * A ban is checked at each adapter's front door (commands, pastes, inline
 * queries, buttons): a banned chat, server or user is ignored, with one log line.
 */
import type { Logger } from 'pino';
import type { OwnerStore } from '../store/owner.ts';
import type { Caller, Platform } from './command.ts';

/** The console's command word: never in the registry, so never registered globally. */
export const OWNER_COMMAND = 'owner';

/** `platform:id`, the form OWNER_IDS and bans name people and chats in. */
export const idOf = (platform: Platform, id: string): string => `${platform}:${id}`;

/** True for an owner, writing in a private chat with the bot. */
export function isOwnerCall(owners: ReadonlySet<string>, caller: Caller): boolean {
  return caller.chatType === 'private' && owners.has(idOf(caller.platform, caller.userId));
}

/** Who an update comes from and where: each part a ban can name. */
export interface Origin {
  readonly platform: Platform;
  readonly userId?: string | undefined;
  readonly chatId?: string | undefined;
  readonly serverId?: string | undefined;
  /** Telegram: the chat a message was posted as. */
  readonly senderChatId?: string | undefined;
}

export function targetsOf(o: Origin): string[] {
  return [o.userId, o.chatId, o.serverId, o.senderChatId]
    .filter((x): x is string => x !== undefined && x !== '')
    .map((x) => idOf(o.platform, x));
}

/**
 * True when the update must be ignored (a ban names its user, chat or server).
 * The store unreadable: not ignored (a ban is not worth refusing everyone).
 */
export async function ignored(
  owner: Pick<OwnerStore, 'banned'> | undefined,
  o: Origin,
  what: string,
  log: Logger,
): Promise<boolean> {
  if (!owner) return false;
  try {
    const ban = await owner.banned(targetsOf(o));
    if (!ban) return false;
    log.info({ banned: ban.target, what }, 'ignored: banned by an owner');
    return true;
  } catch (err) {
    log.warn({ err }, 'bans unreadable; not ignoring');
    return false;
  }
}
