/**
 * Loads every command file in `commands/` and checks it before the bot starts:
 * a bad name, or a command or option with no description in the catalogue,
 * fails at start, not when Discord refuses the registration. Each command goes
 * out with its English texts from the catalogue (their one home), and the same
 * map feeds dispatch, `/help`, Discord's command registration and Telegram's
 * setMyCommands, so they cannot disagree.
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import en from '../i18n/locales/en.ts';
import type { AnyCommand, SomeCommand } from './command.ts';
import type { OptionsShape } from './options.ts';

const COMMANDS_DIR = fileURLToPath(new URL('../../commands/', import.meta.url));

const NAME = /^[a-z0-9_]{1,32}$/;
const OPTION_NAME = /^[a-z0-9_]{1,32}$/;
export const DESCRIPTION_MAX = 100;
const OPTIONS_MAX = 25;

export type Registry = ReadonlyMap<string, AnyCommand>;

/** The English a user reads about commands: one line per command, one per option a user sets. */
export interface CommandTexts {
  readonly commands: Readonly<Record<string, string>>;
  readonly options: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** The catalogue's: where every real command's words live. Tests pass their own for their own commands. */
export const CATALOGUE_TEXTS: CommandTexts = { commands: en.commands, options: en.options };

export async function loadCommands(
  dir: string = COMMANDS_DIR,
  texts: CommandTexts = CATALOGUE_TEXTS,
): Promise<Registry> {
  const files = (await readdir(dir))
    .filter((f) => f.endsWith('.ts') && !f.startsWith('_') && !f.endsWith('.d.ts'))
    .sort();
  const commands: SomeCommand[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default?: unknown };
    commands.push(checkCommand(mod.default, file));
  }
  return buildRegistry(commands, texts);
}

/** The registry of `commands`, each with its texts; throws naming the command whose text is missing or too long. */
export function buildRegistry(commands: readonly SomeCommand[], texts: CommandTexts = CATALOGUE_TEXTS): Registry {
  const map = new Map<string, AnyCommand>();
  for (const c of commands) {
    if (map.has(c.name)) throw new Error(`Two commands are named '${c.name}'`);
    map.set(c.name, describe(c, texts));
  }
  return map;
}

function describe(c: SomeCommand, texts: CommandTexts): AnyCommand {
  const fits = (text: string | undefined) =>
    typeof text === 'string' && text.length >= 1 && text.length <= DESCRIPTION_MAX;
  const description = Object.hasOwn(texts.commands, c.name) ? texts.commands[c.name] : undefined;
  if (!fits(description)) {
    throw new Error(`/${c.name}: commands.${c.name} in the catalogue must be 1-${DESCRIPTION_MAX} characters`);
  }
  const own = Object.hasOwn(texts.options, c.name) ? texts.options[c.name]! : {};
  const optionTexts: Record<string, string> = {};
  for (const [name, o] of Object.entries(c.options as OptionsShape)) {
    if (o.spec.internal) continue;
    const text = Object.hasOwn(own, name) ? own[name] : undefined;
    if (!fits(text)) {
      throw new Error(`/${c.name}: options.${c.name}.${name} in the catalogue must be 1-${DESCRIPTION_MAX} characters`);
    }
    optionTexts[name] = text!;
  }
  return { ...c, description: description!, optionTexts };
}

/** Throws a message naming the file and the problem. */
function checkCommand(value: unknown, file: string): SomeCommand {
  const fail = (why: string): never => {
    throw new Error(`commands/${file}: ${why}`);
  };
  if (!value || typeof value !== 'object') fail('has no default export');
  const c = value as Partial<SomeCommand> & { description?: unknown };
  if (typeof c.name !== 'string' || !NAME.test(c.name))
    fail(`name must be 1-32 of [a-z0-9_], got ${JSON.stringify(c.name)}`);
  if (c.description !== undefined)
    fail(`its description belongs in the catalogue (commands.${c.name}), not in the file`);
  if (typeof c.run !== 'function') fail('has no run() function');
  if (!Array.isArray(c.examples) || c.examples.length === 0) fail('needs at least one example');
  if (!c.options || typeof c.options !== 'object') fail('needs an options object (may be empty)');
  const names = Object.keys(c.options!);
  if (names.length > OPTIONS_MAX) fail(`has more than ${OPTIONS_MAX} options`);
  for (const n of names) {
    const o = c.options![n];
    if (!OPTION_NAME.test(n)) fail(`option name '${n}' must be 1-32 of [a-z0-9_]`);
    if (!o?.spec || !o.schema) fail(`option '${n}' must be built with opt.*`);
  }
  for (const ex of c.examples!) if (!ex.startsWith(`/${c.name}`)) fail(`example '${ex}' must start with /${c.name}`);
  return c as SomeCommand;
}
