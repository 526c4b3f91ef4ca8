/**
 * A mistake the user can fix. Its message is shown as is, so it is short, says
 * what was wrong and, with `example`, shows a correct command to copy.
 *
 * Code without a `t` (option parsing, validation, KOL and address checks) gives
 * a catalogue key instead of text: the error boundary renders it in the
 * answer's language. `message` is always the English text, for logs.
 */
import { translator, type T } from '../i18n/index.ts';
import { renderMessage, type Message } from '../i18n/message.ts';

export { isMessage, renderMessage, type Message } from '../i18n/message.ts';

const ENGLISH = translator('en');

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

/** Characters of what someone typed that an error answer quotes back: enough to recognise it. */
export const QUOTE_MAX = 40;

/**
 * What was typed, as an error answer may quote it: the start of it only, so a 4,000-character
 * payload never comes back in the bot's voice.
 */
export function typedPart(text: string, max = QUOTE_MAX): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}

/** The caller may not do this here (subscription changes by non-admins). */
export class PermissionError extends UserError {
  override name = 'PermissionError';
}
