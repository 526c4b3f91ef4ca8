/**
 * The neutral view model: what a command answers, before any platform sees it.
 *
 * Commands build these; the per-platform renderers (`render/discord.ts`,
 * `render/telegram.ts`, `render/plain.ts`) turn them into payloads. Every string
 * in a view is plain, unescaped text (upstream text is untrusted): escaping,
 * mention-neutering and cutting to platform limits are the renderers' job, so a
 * command can never produce markup by accident.
 */

/** A run of inline text. Plain strings are literal text; objects add emphasis or a link. */
export type Span =
  | string
  | { readonly b: string }
  | { readonly i: string }
  | { readonly code: string }
  | { readonly link: string; readonly url: string };

/** Inline text: one string, or spans rendered in order. */
export type Rich = string | readonly Span[];

export type Colour = 'brand' | 'up' | 'down' | 'neutral' | 'warn' | 'error';

export interface Field {
  readonly name: string;
  readonly value: Rich;
  /** Hint that the field is short and may sit beside others (Discord inline fields). */
  readonly inline?: boolean;
}

/** Opens a URL (explorer, X profile, tweet). */
export interface LinkButton {
  readonly label: string;
  readonly url: string;
}

/**
 * Re-runs a command with the given options when pressed (paging, "more tweets").
 * Commands fill `command` and `options`; the core stores them under a short
 * random key with a TTL and sets `id`, which is all a platform carries (Telegram
 * callback data is 64 bytes, a Discord custom id 100 characters).
 */
export interface Action {
  readonly label: string;
  readonly command: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly style?: 'primary' | 'secondary' | 'danger';
  /**
   * Asks for a value before it runs (a Discord modal, a Telegram forced reply):
   * the answer goes to the command as its `value` option.
   */
  readonly ask?: Ask;
  /**
   * Actions that share `pick` are one choice among several (chains, languages):
   * Discord shows them as one select menu with `pick` as its placeholder, each
   * option running its action; other platforms show buttons.
   */
  readonly pick?: string;
  /** Marks the option currently in force, for a select menu's default. */
  readonly chosen?: boolean;
  /**
   * Answers with a new message and leaves the pressed one as it was (a call card under a token
   * card: a text message cannot become a picture, and the card is the chat's, not the presser's).
   */
  readonly opensNew?: boolean;
  /** Set by the core before rendering. */
  id?: string;
}

/** What a button asks for: the adapters show it as a modal or a forced reply, within their limits. */
export interface Ask {
  /** What is asked for, short (a modal's title). */
  readonly title: string;
  /** The field's label. */
  readonly label: string;
  /** The current value, filled in to edit. */
  readonly value: string;
  /** A value that would be accepted, shown as a hint. */
  readonly example: string;
  /** What the value means (the option's description), at most 100 characters. */
  readonly hint: string;
}

/** A PNG made by the bot (never fetched from a remote URL). */
export interface Picture {
  readonly png: Uint8Array;
  /** File name, e.g. `mindmap.png`. */
  readonly name: string;
  readonly alt: string;
}

interface Common {
  readonly links?: readonly LinkButton[];
  readonly actions?: readonly Action[];
}

export interface CardView extends Common {
  readonly kind: 'card';
  readonly title: string;
  readonly url?: string;
  readonly description?: Rich;
  readonly fields?: readonly Field[];
  /** Remote image URL shown small (token icon, avatar); never drawn into pictures. */
  readonly thumbnailUrl?: string;
  readonly picture?: Picture;
  readonly footer?: string;
  readonly colour?: Colour;
}

export interface Column {
  readonly key: string;
  readonly label: string;
  readonly align?: 'left' | 'right';
}

/** A table shown as aligned monospace text, with an optional page position. */
export interface TableView extends Common {
  readonly kind: 'table';
  readonly title: string;
  readonly description?: Rich;
  readonly columns: readonly Column[];
  readonly rows: readonly Readonly<Record<string, string>>[];
  /** Lines under the table (one per row, e.g. full names and links), optional. */
  readonly notes?: readonly Rich[];
  readonly footer?: string;
  readonly picture?: Picture;
  readonly colour?: Colour;
}

export interface TextView extends Common {
  readonly kind: 'text';
  readonly text: Rich;
  readonly picture?: Picture;
}

/** A short answer to a mistake or a fault: shown privately where the platform can. */
export interface ErrorView extends Common {
  readonly kind: 'error';
  readonly message: string;
  /** A correct example to copy, e.g. `/token solana So11111111111111111111111111111111111111112`. */
  readonly example?: string;
  /**
   * The words around it in the reader's language ("Example:", and the console's
   * "Error:"), from the catalogue; the dispatcher fills them in. Without them the
   * renderers show the example bare: never an English label.
   */
  readonly labels?: { readonly example: string; readonly error: string };
  /** A refusal of rights (not a mistake to fix): adapters may answer its repeats once. */
  readonly denied?: boolean;
}

export type View = CardView | TableView | TextView | ErrorView;
