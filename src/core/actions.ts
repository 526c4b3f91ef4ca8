/**
 * Buttons, in one place: how their ids are made and read, and how each is
 * bound to the query it runs. A button carries only `a:<command>:<key>`; the
 * query waits in the page store under that key (see store/pages.ts for why).
 * Commands' buttons (bound by the dispatcher) and alerts' buttons (bound when
 * an alert is planned) both come through here.
 */
import type { PageStore, StoredAction } from '../store/pages.ts';
import type { Caller } from './command.ts';
import { destinationKey } from '../domain/destination.ts';

/** Prefix of action ids, so adapters can tell our buttons from anything else. */
const ACTION_PREFIX = 'a:';

/** True for the ids of our buttons, whatever their age. */
export function isAction(id: string): boolean {
  return id.startsWith(ACTION_PREFIX);
}

/**
 * Buttons on a message many people share (an alert) answer with a new message
 * instead of replacing it: one member's click must not take the alert away from
 * the channel. Their ids carry a `+` before the command name.
 */
export function opensNew(id: string): boolean {
  return id.startsWith(`${ACTION_PREFIX}+`);
}

/**
 * Buttons that ask for a value before they run (settings): the adapter shows a
 * modal or a forced reply first. Their ids carry a `?` before the command name.
 */
export function asks(id: string): boolean {
  return id.startsWith(`${ACTION_PREFIX}?`);
}

/** The page-store key behind a button, and the command named in clear (absent in old ids). */
export function parseActionId(id: string): { command: string | undefined; key: string } | undefined {
  if (!isAction(id)) return undefined;
  const rest = id.slice(ACTION_PREFIX.length).replace(/^[+?]/, '');
  const colon = rest.lastIndexOf(':');
  return colon < 0 ? { command: undefined, key: rest } : { command: rest.slice(0, colon), key: rest.slice(colon + 1) };
}

/** The destination a button is bound to: its message's chat (and forum topic), on its platform. */
export function chatKey(c: Pick<Caller, 'platform' | 'chatId' | 'threadId'>): string {
  return destinationKey(c);
}

/**
 * Stores the query behind a button, with the chats whose messages carry it
 * (callback data can be forged, so a press anywhere else is refused), and returns its id: `a:<command>:<key>`, at
 * most 2 + 1 + 32 + 1 + 12 = 48 bytes (Telegram allows 64). The command name in
 * clear lets an expired button say what to run again.
 */
export async function bindAction(
  pages: PageStore,
  a: StoredAction,
  ttlMs: number,
  o: { opensNew?: boolean } = {},
): Promise<string> {
  const key = await pages.put(
    { command: a.command, options: a.options, chats: a.chats, ...(a.ask ? { ask: a.ask } : {}) },
    ttlMs,
  );
  return `${ACTION_PREFIX}${o.opensNew ? '+' : a.ask ? '?' : ''}${a.command}:${key}`;
}
