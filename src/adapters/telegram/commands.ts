/**
 * Telegram's side of the command registry: reading "/name@bot args" from a
 * message, the list for setMyCommands, and /start and /help when the registry
 * has no command of that name.
 */
import type { Registry } from '../../core/registry.ts';
import { audienceOf } from '../../core/command.ts';
import { commandDescription, translator, type T } from '../../i18n/index.ts';
import type { View } from '../../domain/view.ts';
import { spansOf } from '../../views/render/common.ts';

export interface ParsedCommand {
  /** Lower case, without the slash or the bot's name. */
  readonly name: string;
  /** Everything after the command word, as typed. */
  readonly args: string;
  /** Written as /name@ourbot: meant for us even if we do not know the name. */
  readonly addressed: boolean;
}

interface Entity {
  readonly type: string;
  readonly offset: number;
  readonly length: number;
}

const COMMAND_WORD = /^\/([A-Za-z0-9_]{1,64})(?:@([A-Za-z0-9_]{1,64}))?$/;

/**
 * The command a message starts with, as Telegram marks it (a bot_command
 * entity at offset 0); undefined for chat noise and for commands addressed to
 * another bot (/token@otherbot).
 */
export function parseCommand(
  text: string,
  entities: readonly Entity[] | undefined,
  botUsername: string,
): ParsedCommand | undefined {
  const e = entities?.[0];
  if (e?.type !== 'bot_command' || e.offset !== 0) return undefined;
  const m = COMMAND_WORD.exec(text.slice(0, e.length));
  if (!m) return undefined;
  const to = m[2];
  if (to !== undefined && to.toLowerCase() !== botUsername.toLowerCase()) return undefined;
  return { name: m[1]!.toLowerCase(), args: text.slice(e.length), addressed: to !== undefined };
}

const NAME = /^[a-z0-9_]{1,32}$/;
const DESCRIPTION_MAX = 256;

export interface BotCommandList {
  readonly commands: { command: string; description: string }[];
  /** Names Telegram would refuse, so left out. */
  readonly skipped: string[];
}

/**
 * The menus by scope (setMyCommands `scope`): in private chats and for group admins every
 * command; for the other members of a group what is theirs (core/command.ts audienceOf).
 * The default scope, for any chat no other scope covers, is the whole list as before.
 */
export const MENU_SCOPES = [
  { scope: { type: 'default' }, members: false },
  { scope: { type: 'all_private_chats' }, members: false },
  { scope: { type: 'all_group_chats' }, members: true },
  { scope: { type: 'all_chat_administrators' }, members: false },
] as const;

/**
 * The menu Telegram shows: every registry command that fits Telegram's rules (at most 100), described
 * in `t`'s language; with `membersOnly`, only those a group's members see.
 */
export function botCommands(registry: Registry, t: T = translator('en'), membersOnly = false): BotCommandList {
  const commands: { command: string; description: string }[] = [];
  const skipped: string[] = [];
  const add = (name: string, description: string) => {
    const d = description.trim();
    if (
      NAME.test(name) &&
      d.length >= 1 &&
      d.length <= DESCRIPTION_MAX &&
      commands.length < 100 &&
      !commands.some((c) => c.command === name)
    ) {
      commands.push({ command: name, description: d });
    } else skipped.push(name);
  };
  for (const c of registry.values())
    if (!membersOnly || audienceOf(c) === 'members') add(c.name, commandDescription(t, c));
  if (!registry.has('help')) add('help', t('telegram.helpFallback'));
  return { commands, skipped };
}

/** /help when no command file provides one: each command with its first example. */
export function fallbackHelp(registry: Registry, t: T = translator('en')): View {
  const text = [...registry.values()].flatMap((c) => [
    { b: `/${c.name}` },
    ` ${commandDescription(t, c)}\n`,
    { code: c.examples[0] },
    '\n\n',
  ]);
  return { kind: 'text', text: [{ b: t('telegram.commands') }, '\n\n', ...text] };
}

/** The help view with the greeting in front. */
export function greet(help: View, t: T = translator('en')): View {
  const greeting = t('telegram.greeting');
  const hello = [greeting, '\n\n'];
  switch (help.kind) {
    case 'text':
      return { ...help, text: [...hello, ...spansOf(help.text)] };
    case 'card':
    case 'table':
      return { ...help, description: [...hello, ...spansOf(help.description)] };
    case 'error':
      return { kind: 'text', text: greeting };
  }
}
