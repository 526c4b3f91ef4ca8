/**
 * A mistake the user can fix. Its message is shown as is, so it is short, says
 * what was wrong and, with `example`, shows a correct command to copy.
 *
 * Code without a `t` (option parsing, validation, KOL and address checks) gives
 * a catalogue key instead of text: the error boundary renders it in the
 * answer's language. `message` is always the English text, for logs.
 */
import { languageOf, translator, type T } from '../i18n/index.ts';

/**
 * A catalogue key and its values. A value may itself be a Message (rendered
 * first) or `{ or: [...] }` / `{ and: [...] }`, a list joined as the language joins them.
 */
export interface Message {
  readonly key: string;
  readonly values?: Readonly<Record<string, unknown>>;
}

export function isMessage(v: unknown): v is Message {
  return typeof v === 'object' && v !== null && typeof (v as Message).key === 'string';
}

/** A Message in `t`'s language. */
export function renderMessage(t: T, m: Message): string {
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m.values ?? {})) {
    if (isMessage(v)) values[k] = renderMessage(t, v);
    else if (v && typeof v === 'object' && Array.isArray((v as { or?: unknown }).or)) values[k] = listed(t, (v as { or: string[] }).or, 'disjunction');
    else if (v && typeof v === 'object' && Array.isArray((v as { and?: unknown }).and)) values[k] = listed(t, (v as { and: string[] }).and, 'conjunction');
    else values[k] = v;
  }
  return t(m.key as never, values as never) as unknown as string;
}

const ENGLISH = translator('en');
const lists = new Map<string, Intl.ListFormat>();

/** "a or b" ("a 或 b", "a или b"), "a and b". */
function listed(t: T, items: readonly string[], type: 'disjunction' | 'conjunction'): string {
  const key = `${languageOf(t)}:${type}`;
  let f = lists.get(key);
  if (!f) lists.set(key, (f = new Intl.ListFormat(languageOf(t), { type })));
  return f.format(items);
}

export class UserError extends Error {
  override name = 'UserError';
  readonly example: string | undefined;
  /** The catalogue form of the message, when the thrower had no `t`. */
  readonly text: Message | undefined;
  constructor(message: string | Message, example?: string) {
    super(typeof message === 'string' ? message : renderMessage(ENGLISH, message));
    this.example = example;
    this.text = typeof message === 'string' ? undefined : message;
  }

  /** The message in `t`'s language (text built with a `t` is already in it). */
  localized(t: T): string {
    return this.text ? renderMessage(t, this.text) : this.message;
  }
}

/** The caller may not do this here (subscription changes by non-admins). */
export class PermissionError extends UserError {
  override name = 'PermissionError';
}
