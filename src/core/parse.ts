/**
 * Text commands, as typed in Telegram and the terminal:
 *   /token solana <address>        positional values, in the options' order
 *   /kols sort:winrate limit:10    key:value (or key=value) for the rest
 *   /kols search:"crypto cat"      quotes keep spaces together
 * The result is raw (strings); `validate` turns it into the command's input.
 */
import type { z } from 'zod';
import { suggest } from '../domain/chains.ts';
import type { SomeCommand, RawArgs } from './command.ts';
import { type Message, typedPart, UserError } from './errors.ts';
import type { OptionsShape } from './options.ts';

export interface ParsedText {
  /** Lower-cased command name without the slash and any `@botname`. */
  readonly name: string;
  /** The `@botname` suffix if present, so a group can ignore commands for other bots. */
  readonly mention: string | undefined;
  readonly args: readonly string[];
}

const COMMAND = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,64}))?(?:\s+|$)/;

/** Splits a command line; undefined when the text is not a command. */
export function splitCommand(text: string): ParsedText | undefined {
  const t = text.trim();
  const m = COMMAND.exec(t);
  if (!m) return undefined;
  return { name: m[1]!.toLowerCase(), mention: m[2], args: tokenize(t.slice(m[0].length)) };
}

/**
 * Whitespace-separated words; "double", “curly” and 'single' quotes group
 * words. A single quote opens a group only at the start of a word or a value
 * (after `:` or `=`), so an apostrophe inside a word (don't) stays a letter.
 */
export function tokenize(s: string): string[] {
  const out: string[] = [];
  let word = '';
  // The word's last character, kept aside: reading it from `word` (a string still being
  // built) would copy the whole word for every character, quadratic on one long word.
  let last = '';
  let started = false;
  let close: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (close) {
      if (c === close) close = undefined;
      else {
        word += c;
        last = c;
      }
      continue;
    }
    const atValueStart = word === '' || last === ':' || last === '=';
    if (c === '"' || c === '“' || (c === "'" && atValueStart)) {
      close = c === '“' ? '”' : c;
      started = true;
    } else if (/\s/.test(c)) {
      if (started || word) out.push(word);
      word = '';
      last = '';
      started = false;
    } else {
      word += c;
      last = c;
      started = true;
    }
  }
  if (started || word) out.push(word);
  return out;
}

/** Maps words onto a command's options. Throws UserError on unknown or repeated keys. */
export function argsFor(command: SomeCommand, words: readonly string[]): RawArgs {
  const names = Object.keys(command.options);
  const positional = names.filter((n) => command.options[n]!.spec.positional);
  const raw: RawArgs = {};
  const loose: string[] = [];
  for (const word of words) {
    // key:value or key=value; a Move address (0x…::coin::NAME) has '::' right after its first part, a link '://'.
    const kv = /^([A-Za-z][A-Za-z0-9_]*)[:=](?!:|\/\/)(.*)$/s.exec(word);
    if (kv) {
      const key = resolveKey(command, kv[1]!);
      if (key in raw)
        throw new UserError({ key: 'errors.twice', values: { key: typedPart(key) } }, command.examples[0]);
      if (kv[2] === '')
        throw new UserError({ key: 'errors.emptyValue', values: { key: typedPart(key) } }, exampleFor(command, key));
      raw[key] = kv[2]!;
    } else {
      loose.push(word);
    }
  }
  const free = positional.filter((n) => !(n in raw));
  if (loose.length > free.length) {
    const extra = typedPart(loose.slice(free.length).join(' '));
    throw new UserError(
      {
        key: free.length === 0 && positional.length === 0 ? 'errors.keyValueOnly' : 'errors.tooMany',
        values: { command: command.name, extra },
      },
      command.examples[0],
    );
  }
  loose.forEach((word, i) => {
    raw[free[i]!] = word;
  });
  return raw;
}

function resolveKey(command: SomeCommand, key: string): string {
  const names = Object.keys(command.options);
  const exact = names.find((n) => n.toLowerCase() === key.toLowerCase());
  if (exact) return exact;
  const near = suggest(key, names);
  const values = { key: typedPart(key), command: command.name, near, names: names.join(', ') };
  throw new UserError(
    {
      key: near ? 'errors.unknownOptionNear' : names.length ? 'errors.unknownOptionList' : 'errors.unknownOption',
      values,
    },
    command.examples[0],
  );
}

/** Validates raw values against the command's options; the first problem becomes the answer. */
export function validate(command: SomeCommand, raw: RawArgs): Record<string, unknown> {
  const input = command.normalize ? command.normalize({ ...raw }) : raw;
  const out: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [name, option] of Object.entries(command.options as OptionsShape)) {
    const value = input[name];
    if (value === undefined || value === '') {
      if (option.spec.required) missing.push(name);
      else if (option.spec.default !== undefined) out[name] = option.spec.default;
      continue;
    }
    const r = option.schema.safeParse(value);
    if (!r.success) throw new UserError(describe(name, value, r.error), exampleFor(command, name));
    out[name] = r.data;
  }
  if (missing.length) {
    const what = missing.map((m) => `<${m}>`).join(' ');
    throw new UserError({ key: 'errors.needs', values: { command: command.name, what } }, command.examples[0]);
  }
  return out;
}

/** The first issue as a Message: options.ts gives catalogue keys, with their numbers in the issue. */
function describe(name: string, value: unknown, error: z.ZodError): Message {
  const issue = error.issues[0];
  const params = ((issue as { params?: Record<string, unknown> } | undefined)?.params ?? {}) as {
    whole?: Message;
    min?: unknown;
    max?: unknown;
    values?: unknown;
  };
  if (issue?.code === 'custom' && params.whole) return params.whole;
  const key = issue?.message?.startsWith('errors.') ? issue.message : 'errors.option.invalid';
  const bounds = issue as { minimum?: unknown; maximum?: unknown } | undefined;
  const problem: Message = {
    key,
    values: { name, min: params.min ?? bounds?.minimum, max: params.max ?? bounds?.maximum, values: params.values },
  };
  const shown = typeof value === 'string' ? `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'` : String(value);
  return { key: 'errors.got', values: { problem, shown } };
}

/**
 * An example that uses the option the user got wrong: one of the command's
 * own, or else one made from the option's example value (with the required
 * options' examples before it), so the answer shows the option working.
 */
function exampleFor(command: SomeCommand, name: string): string {
  const own = command.examples.find((e) => e.includes(` ${name}:`));
  if (own) return own;
  const spec = command.options[name]?.spec;
  if (spec?.example === undefined || spec.positional) return command.examples[0];
  const required = Object.entries(command.options as OptionsShape).filter(([, o]) => o.spec.required);
  if (required.some(([, o]) => o.spec.example === undefined)) return command.examples[0];
  const first = required.map(([k, o]) => (o.spec.positional ? o.spec.example! : `${k}:${o.spec.example}`));
  return [`/${command.name}`, ...first, `${name}:${spec.example}`].join(' ');
}
