/**
 * Discord's application command definitions, generated from the same registry
 * that dispatch, `/help` and Telegram use, so what users can type on Discord
 * cannot drift from what the bot accepts.
 */
import { PermissionFlagsBits } from 'discord.js';
import type { AnyCommand, SomeCommand } from '../../core/command.ts';
import type { OptionSpec } from '../../core/options.ts';
import type { Registry } from '../../core/registry.ts';
import {
  commandDescription,
  DISCORD_LOCALES,
  hasChoiceText,
  hasOptionText,
  LOCALES,
  optionDescription,
  translator,
} from '../../i18n/index.ts';

/** Option types as Discord numbers them. */
const OPTION_TYPES = { string: 3, integer: 4, boolean: 5, number: 10 } as const;
/** A role picker: Discord sends the role's id, and the role itself in `resolved`. */
const ROLE = 8;

/**
 * Where a command is offered. Installation kinds: 0 a server installed the
 * app, 1 a user did (user install: the app follows the user everywhere).
 * Contexts: 0 a server, 1 the bot's DM, 2 private channels (group DMs, reached
 * only by user installs). Lookups go everywhere; commands about a chat's own
 * settings (alerts, automatic cards) need the bot in that server.
 */
const LOOKUP = { integration_types: [0, 1], contexts: [0, 1, 2] } as const;
const CHAT_SETTINGS = { integration_types: [0], contexts: [0] } as const;
/** Personal alerts: also in the bot's DM (a user who shares a server with the bot, or installed it). */
const PERSONAL = { integration_types: [0, 1], contexts: [0, 1] } as const;

/** Message context-menu commands (type 3): right-click a message → Apps. No options, no description. */
export const TOKEN_CARD_COMMAND = 'Token card';
/** "Record call": a message's token as its author's call on the channel's board (/mycall for them). */
export const RECORD_CALL_COMMAND = 'Record call';

const DESCRIPTION_MAX = 100;
const CHOICES_MAX = 25;
/** Discord's integer and number options are bounded by JavaScript's safe range. */
const SAFE = Number.MAX_SAFE_INTEGER;

export interface DiscordChoice {
  name: string;
  /** The label per Discord locale, from the catalogue's `choices` group. */
  name_localizations?: Record<string, string>;
  value: string;
}

export interface DiscordCommandOption {
  type: 3 | 4 | 5 | 8 | 10;
  name: string;
  description: string;
  required: boolean;
  choices?: DiscordChoice[];
  autocomplete?: boolean;
  min_value?: number;
  max_value?: number;
  /** Only for options the catalogue describes; the others stay English until their texts move there. */
  description_localizations?: Record<string, string>;
}

/** A message context-menu command: Discord sends the message it was used on. */
export interface DiscordMessageCommand {
  name: string;
  /** The menu entry's name per Discord locale (menus show it; the handler matches the English name). */
  name_localizations: Record<string, string>;
  type: 3;
  default_member_permissions: null;
  contexts: number[];
  integration_types: number[];
  nsfw: false;
}

export interface DiscordCommand {
  name: string;
  description: string;
  /** The description per Discord locale, from the catalogue (en-US set explicitly, as Discord advises). */
  description_localizations: Record<string, string>;
  type: 1;
  options: DiscordCommandOption[];
  /** Bitfield as a decimal string; null means everyone (Discord's default). */
  default_member_permissions: string | null;
  contexts: number[];
  integration_types: number[];
  nsfw: false;
}

/** Members who may change a channel's alerts by default; admins can widen it per server. */
const MANAGE_PERMISSIONS = PermissionFlagsBits.ManageChannels.toString();

function cutDescription(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim() || '-';
  return one.length <= DESCRIPTION_MAX ? one : `${one.slice(0, DESCRIPTION_MAX - 1)}…`;
}

function toOption(command: string, name: string, spec: OptionSpec, english: string): DiscordCommandOption {
  const option: DiscordCommandOption = {
    type: spec.role ? ROLE : OPTION_TYPES[spec.type],
    name,
    description: cutDescription(english),
    required: spec.required,
  };
  if (hasOptionText(command, name)) {
    option.description_localizations = localised((t) => optionDescription(t, command, name, english));
  }
  if (spec.autocomplete) {
    // Discord refuses choices together with autocomplete; suggestions come from the API instead.
    option.autocomplete = true;
  } else if (spec.choices && !spec.list && spec.choices.length <= CHOICES_MAX && spec.type === 'string') {
    // A list option takes several comma-separated values, which a fixed choice would forbid.
    // The picker shows each choice in the member's language; the value sent stays the English word.
    option.choices = spec.choices.map((c) =>
      hasChoiceText(c)
        ? { name: c, name_localizations: localised((t) => t(`choices.${c}` as never) as string), value: c }
        : { name: c, value: c },
    );
  }
  if (spec.type === 'integer' || spec.type === 'number') {
    if (spec.min !== undefined) option.min_value = Math.max(spec.min, -SAFE);
    if (spec.max !== undefined) option.max_value = Math.min(spec.max, SAFE);
  }
  return option;
}

/** A text per mapped Discord locale. Names stay English: the handlers match on them. */
function localised(
  text: (t: ReturnType<typeof translator>) => string,
  fit: (text: string) => string = cutDescription,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const locale of LOCALES) {
    const one = fit(text(translator(locale)));
    for (const discordLocale of DISCORD_LOCALES[locale]) out[discordLocale] = one;
  }
  return out;
}

export function toDiscordCommand(command: AnyCommand): DiscordCommand {
  const entries = Object.entries(command.options as Record<string, { spec: OptionSpec }>).filter(
    ([, o]) => !o.spec.internal,
  );
  // Discord requires every required option before the optional ones; the order within each group is kept.
  const options = [...entries.filter(([, o]) => o.spec.required), ...entries.filter(([, o]) => !o.spec.required)].map(
    ([name, o]) => toOption(command.name, name, o.spec, command.optionTexts[name] ?? ''),
  );
  return {
    name: command.name,
    description: cutDescription(command.description),
    description_localizations: localised((t) => commandDescription(t, command)),
    type: 1,
    options,
    default_member_permissions: command.requires === 'manage' ? MANAGE_PERMISSIONS : null,
    ...placement(command),
    nsfw: false,
  };
}

function placement(command: SomeCommand): { contexts: number[]; integration_types: number[] } {
  const p = command.personal ? PERSONAL : command.chatSettings ? CHAT_SETTINGS : LOOKUP;
  return { contexts: [...p.contexts], integration_types: [...p.integration_types] };
}

/** "Token card" on any message: works without the Message Content intent (the message comes with the interaction). */
export function messageCommands(registry: Registry): DiscordMessageCommand[] {
  if (!registry.has('token')) return [];
  const record: DiscordMessageCommand[] = registry.has('mycall')
    ? [
        {
          name: RECORD_CALL_COMMAND,
          name_localizations: localised(
            (t) => t('board.recordCallCommand'),
            (name) => name,
          ),
          type: 3,
          default_member_permissions: null,
          // A board is a channel's: in servers only.
          contexts: [...CHAT_SETTINGS.contexts],
          integration_types: [...CHAT_SETTINGS.integration_types],
          nsfw: false,
        },
      ]
    : [];
  return [
    ...record,
    {
      name: TOKEN_CARD_COMMAND,
      // Menu names are short catalogue texts (1-32 characters: the Discord fake checks them).
      name_localizations: localised(
        (t) => t('lookup.tokenCardCommand'),
        (name) => name,
      ),
      type: 3,
      default_member_permissions: null,
      contexts: [...LOOKUP.contexts],
      integration_types: [...LOOKUP.integration_types],
      nsfw: false,
    },
  ];
}

/** The body of a bulk overwrite (`PUT /applications/:id/commands`): slash commands in the registry's order, then message commands. */
export function toDiscordCommands(registry: Registry): (DiscordCommand | DiscordMessageCommand)[] {
  return [...[...registry.values()].map(toDiscordCommand), ...messageCommands(registry)];
}

/** Only the slash commands (tests and tools that inspect options). */
export function toSlashCommands(registry: Registry): DiscordCommand[] {
  return [...registry.values()].map(toDiscordCommand);
}
