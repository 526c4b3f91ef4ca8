/**
 * Loads every command file in `commands/` and checks it before the bot starts:
 * a bad name or a missing description fails at start, not when Discord refuses
 * the registration. The same map feeds dispatch, `/help`, Discord's command
 * registration and Telegram's setMyCommands, so they cannot disagree.
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { AnyCommand } from './command.ts';

const COMMANDS_DIR = fileURLToPath(new URL('../../commands/', import.meta.url));

const NAME = /^[a-z0-9_]{1,32}$/;
const OPTION_NAME = /^[a-z0-9_]{1,32}$/;
export const DESCRIPTION_MAX = 100;
const OPTIONS_MAX = 25;

export type Registry = ReadonlyMap<string, AnyCommand>;

export async function loadCommands(dir: string = COMMANDS_DIR): Promise<Registry> {
  const files = (await readdir(dir))
    .filter((f) => f.endsWith('.ts') && !f.startsWith('_') && !f.endsWith('.d.ts'))
    .sort();
  const commands: AnyCommand[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default?: unknown };
    commands.push(checkCommand(mod.default, file));
  }
  return buildRegistry(commands);
}

export function buildRegistry(commands: readonly AnyCommand[]): Registry {
  const map = new Map<string, AnyCommand>();
  for (const c of commands) {
    if (map.has(c.name)) throw new Error(`Two commands are named '${c.name}'`);
    map.set(c.name, c);
  }
  return map;
}

/** Throws a message naming the file and the problem. */
function checkCommand(value: unknown, file: string): AnyCommand {
  const fail = (why: string): never => {
    throw new Error(`commands/${file}: ${why}`);
  };
  if (!value || typeof value !== 'object') fail('has no default export');
  const c = value as Partial<AnyCommand>;
  if (typeof c.name !== 'string' || !NAME.test(c.name))
    fail(`name must be 1-32 of [a-z0-9_], got ${JSON.stringify(c.name)}`);
  if (typeof c.description !== 'string' || c.description.length < 1 || c.description.length > DESCRIPTION_MAX) {
    fail(`description must be 1-${DESCRIPTION_MAX} characters`);
  }
  if (typeof c.run !== 'function') fail('has no run() function');
  if (!Array.isArray(c.examples) || c.examples.length === 0) fail('needs at least one example');
  if (!c.options || typeof c.options !== 'object') fail('needs an options object (may be empty)');
  const names = Object.keys(c.options!);
  if (names.length > OPTIONS_MAX) fail(`has more than ${OPTIONS_MAX} options`);
  for (const n of names) {
    const o = c.options![n];
    if (!OPTION_NAME.test(n)) fail(`option name '${n}' must be 1-32 of [a-z0-9_]`);
    if (!o?.spec || !o.schema) fail(`option '${n}' must be built with opt.*`);
    if (o!.spec.description.length < 1 || o!.spec.description.length > DESCRIPTION_MAX) {
      fail(`option '${n}' description must be 1-${DESCRIPTION_MAX} characters`);
    }
  }
  for (const ex of c.examples!) if (!ex.startsWith(`/${c.name}`)) fail(`example '${ex}' must start with /${c.name}`);
  return c as AnyCommand;
}
