/**
 * Option builders for commands. Each option is two things at once: a neutral
 * shape (`spec`) that adapters turn into Discord option types or help text, and a zod schema that validates the value whatever its source (typed
 * text, where every value is a string, or a Discord option, already typed).
 * One definition, so help, registration and validation cannot drift apart.
 */
import { z } from 'zod';
import type en from '../i18n/locales/en.ts';
import { CHAIN_ALIASES, CHAINS, type ChainId, suggest } from '../domain/chains.ts';
import { profileHandle } from './quote.ts';

/*
 * Validation messages are catalogue keys (errors.option.*, errors.hint.*), with
 * their numbers in the issue (zod's minimum/maximum, or `params`): parse.ts
 * turns the first issue into a Message the error boundary renders in the
 * answer's language.
 */
type HintKey = keyof typeof en.errors.hint;
type NounKey = keyof typeof en.errors.noun;

export type OptionType = 'string' | 'integer' | 'number' | 'boolean';

/**
 * What an option is, without words: its English description lives in the
 * catalogue (`options.<command>.<option>`), and the registry hands it out with
 * the command (AnyCommand.optionTexts).
 */
export interface OptionSpec {
  readonly type: OptionType;
  readonly required: boolean;
  /** Fixed values offered as choices (Discord choices, help text). */
  readonly choices?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** Several values, comma separated in text (`chains:sol,base`). */
  readonly list?: boolean;
  /** Suggest values as the user types (Discord autocomplete): KOL usernames, or tokens by name and symbol. */
  readonly autocomplete?: 'kol' | 'token';
  /** Taken by position in text commands, in declaration order. */
  readonly positional?: boolean;
  readonly example?: string;
  readonly default?: string | number | boolean;
  /** Set by buttons only (page cursors): left out of help and of Discord's option list, so it needs no description. */
  readonly internal?: boolean;
  /** The value names a role of the server (Discord's role picker); typed, a role mention or id. */
  readonly role?: boolean;
}

export interface Option<T = unknown, R extends boolean = boolean> {
  readonly spec: OptionSpec & { readonly required: R };
  /** Parses a value; undefined when absent (an optional option's schema accepts that, a required one's does not). */
  readonly schema: z.ZodType<T | undefined>;
}

export type OptionsShape = Readonly<Record<string, Option>>;

/** The parsed input a command's `run` receives. */
export type Input<O extends OptionsShape> = {
  -readonly [K in keyof O]: O[K] extends Option<infer T, infer R> ? (R extends true ? T : T | undefined) : never;
};

interface Base<R extends boolean> {
  required?: R;
  positional?: boolean;
  example?: string;
  internal?: boolean;
}

function finish<T, R extends boolean>(
  spec: Omit<OptionSpec, 'required'>,
  schema: z.ZodType<T>,
  required: R | undefined,
): Option<T, R> {
  const req = (required ?? false) as R;
  return { spec: { ...spec, required: req }, schema: req ? schema : schema.optional() };
}

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

function string<R extends boolean = false>(
  o: Base<R> & { min?: number; max?: number; pattern?: RegExp; hint?: HintKey; autocomplete?: 'token' },
) {
  let s = z.string({ error: 'errors.option.text' });
  if (o.min !== undefined) s = s.min(o.min, 'errors.option.minChars');
  if (o.max !== undefined) s = s.max(o.max, 'errors.option.maxChars');
  if (o.pattern) s = s.regex(o.pattern, o.hint ? `errors.hint.${o.hint}` : 'errors.option.format');
  return finish<string, R>(
    { type: 'string', ...pick(o), ...(o.autocomplete ? { autocomplete: o.autocomplete } : {}) },
    z.preprocess(trimmed, s),
    o.required,
  );
}

function numeric<R extends boolean>(
  type: 'integer' | 'number',
  o: Base<R> & { min?: number; max?: number; default?: number },
) {
  const what = type === 'integer' ? 'errors.option.integer' : 'errors.option.number';
  let n = z.number({ error: what }).refine(Number.isFinite, what);
  if (type === 'integer') n = n.refine(Number.isInteger, what);
  const params = { min: o.min, max: o.max };
  if (o.min !== undefined && o.max !== undefined)
    n = n.refine((v) => v >= o.min! && v <= o.max!, { message: 'errors.option.between', params });
  else if (o.min !== undefined) n = n.refine((v) => v >= o.min!, { message: 'errors.option.atLeast', params });
  else if (o.max !== undefined) n = n.refine((v) => v <= o.max!, { message: 'errors.option.atMost', params });
  const toNumber = (v: unknown) => {
    if (typeof v !== 'string') return v;
    const t = v.trim().replace(/_/g, '');
    // Accept 10k / 2.5m / 1b for bounds such as follower counts and market caps.
    const m = /^(-?\d+(?:\.\d+)?)([kmb])?$/i.exec(t);
    if (!m) return Number.NaN;
    const mult = { k: 1e3, m: 1e6, b: 1e9 }[(m[2] ?? '').toLowerCase() as 'k' | 'm' | 'b'] ?? 1;
    return Number(m[1]) * mult;
  };
  return finish<number, R>(
    {
      type,
      ...pick(o),
      ...(o.min !== undefined ? { min: o.min } : {}),
      ...(o.max !== undefined ? { max: o.max } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
    },
    z.preprocess(toNumber, n),
    o.required,
  );
}

function boolean<R extends boolean = false>(o: Base<R>) {
  const toBool = (v: unknown) => {
    if (typeof v !== 'string') return v;
    const t = v.trim().toLowerCase();
    if (['true', 'yes', 'y', '1', 'on'].includes(t)) return true;
    if (['false', 'no', 'n', '0', 'off'].includes(t)) return false;
    return v;
  };
  return finish<boolean, R>(
    { type: 'boolean', ...pick(o) },
    z.preprocess(toBool, z.boolean({ error: 'errors.option.yesNo' })),
    o.required,
  );
}

/** One of fixed values; case-insensitive, with aliases and a "did you mean". */
function choice<const V extends readonly [string, ...string[]], R extends boolean = false>(
  values: V,
  o: Base<R> & { aliases?: Readonly<Record<string, V[number]>>; noun?: NounKey; default?: V[number] },
) {
  return finish<V[number], R>(
    { type: 'string', ...pick(o), choices: values, ...(o.default !== undefined ? { default: o.default } : {}) },
    choiceSchema(values, o.aliases ?? {}, o.noun ?? 'value'),
    o.required,
  );
}

function choiceSchema<V extends readonly [string, ...string[]]>(
  values: V,
  aliases: Readonly<Record<string, string>>,
  noun: NounKey,
) {
  const byLower = new Map<string, V[number]>(values.map((v) => [v.toLowerCase(), v]));
  const list = values.join(', ');
  return z
    .string({ error: { message: 'errors.option.oneOf', params: { values: list } } as never })
    .transform((raw, ctx): V[number] => {
      const key = raw.trim().toLowerCase();
      const hit = byLower.get(key) ?? (aliases[key] as V[number] | undefined);
      if (hit) return hit;
      const near = suggest(key, [...values, ...Object.keys(aliases)]);
      const resolved = near ? (byLower.get(near) ?? aliases[near] ?? near) : undefined;
      const nounText = { key: `errors.noun.${noun}` };
      const whole = resolved
        ? { key: 'errors.unknownChoiceNear', values: { noun: nounText, raw, near: resolved } }
        : { key: 'errors.unknownChoice', values: { noun: nounText, raw, values: list } };
      ctx.addIssue({ code: 'custom', message: whole.key, params: { whole } });
      return z.NEVER;
    });
}

function chain<R extends boolean = false>(o: Base<R>) {
  return choice(CHAINS, { ...o, aliases: CHAIN_ALIASES, noun: 'chain' });
}

/** Several values: a list from Discord or `a,b,c` from text. */
function list<T, R extends boolean = false>(item: Option<T>, o: Base<R> & { max?: number }) {
  const split = (v: unknown) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v;
  let arr = z.array(item.schema as z.ZodType<T>);
  if (o.max !== undefined) arr = arr.max(o.max, 'errors.option.maxValues');
  const spec: Omit<OptionSpec, 'required'> = {
    type: 'string',
    ...pick(o),
    list: true,
    ...(item.spec.choices ? { choices: item.spec.choices } : {}),
  };
  return finish<T[], R>(spec, z.preprocess(split, arr.min(1, 'errors.option.minValues')), o.required);
}

/** A KOL: `@username`, a username, an x.com profile link, or a numeric Twitter id (kept as a string). */
function kol<R extends boolean = false>(o: Base<R>) {
  const handle = (v: unknown) => {
    const s = trimmed(v);
    return typeof s === 'string' ? (profileHandle(s) ?? s) : s;
  };
  return finish<string, R>(
    { type: 'string', ...pick(o), autocomplete: 'kol' },
    z.preprocess(handle, z.string().regex(/^@?[A-Za-z0-9_]{1,50}$/, 'errors.option.username')),
    o.required,
  );
}

/** A server role: Discord's picker sends its id; typed text may be a mention `<@&id>` or the id (no leading zero: another spelling would be stored as another role). */
function role<R extends boolean = false>(o: Base<R>) {
  const id = (v: unknown) => {
    const s = trimmed(v);
    return typeof s === 'string' ? (/^<@&(\d+)>$/.exec(s)?.[1] ?? s) : s;
  };
  return finish<string, R>(
    { type: 'string', ...pick(o), role: true },
    z.preprocess(id, z.string().regex(/^[1-9]\d{16,19}$/, 'errors.option.format')),
    o.required,
  );
}

function pick(o: Base<boolean>) {
  return {
    ...(o.positional ? { positional: true } : {}),
    ...(o.example !== undefined ? { example: o.example } : {}),
    ...(o.internal ? { internal: true } : {}),
  };
}

export const opt = {
  string,
  integer: <R extends boolean = false>(o: Base<R> & { min?: number; max?: number; default?: number }) =>
    numeric<R>('integer', o),
  number: <R extends boolean = false>(o: Base<R> & { min?: number; max?: number; default?: number }) =>
    numeric<R>('number', o),
  boolean,
  choice,
  chain,
  list,
  kol,
  role,
};

export type { ChainId };
