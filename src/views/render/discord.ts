/**
 * View -> Discord message payload, as plain JSON in the REST API's shape.
 * Every string is escaped and cut so the payload fits Discord's limits; no
 * mention can ping (escaped text, and `allowed_mentions.parse` empty).
 * `toDiscordJsOptions` maps the payload to discord.js option names.
 */
import type { Action, CardView, Colour, ErrorView, TableView, TextView, View } from '../../domain/view.ts';
import { clean, cut, neuterMentions, singleLine } from '../text.ts';
import { chunk, moreRows, safeFileName, safeUrl, usableActions, usableLinks } from './common.ts';
import { escapeMarkdown, inlineCode, richMarkdown } from './discord-md.ts';
import { layoutTable } from './table.ts';

export const CONTENT_MAX = 2000;
export const EMBED_TITLE_MAX = 256;
export const EMBED_DESCRIPTION_MAX = 4096;
export const EMBED_FIELDS_MAX = 25;
export const FIELD_NAME_MAX = 256;
export const FIELD_VALUE_MAX = 1024;
export const FOOTER_MAX = 2048;
export const EMBED_TOTAL_MAX = 6000;
export const BUTTONS_PER_ROW = 5;
export const ROWS_MAX = 5;
export const CUSTOM_ID_MAX = 100;
export const BUTTON_LABEL_MAX = 80;
export const BUTTON_URL_MAX = 512;
export const EPHEMERAL_FLAG = 64;
export const SELECT_OPTIONS_MAX = 25;
export const SELECT_PLACEHOLDER_MAX = 150;
export const SELECT_OPTION_LABEL_MAX = 100;
export const SELECT_VALUE_MAX = 100;
/** A select menu's custom id: this prefix and its first option's action id. */
export const SELECT_PREFIX = 's:';
/** Columns a table may take before lines wrap in an embed on desktop. */
export const TABLE_WIDTH = 60;

export const COLOURS: Readonly<Record<Colour, number>> = {
  brand: 0x7c5cff,
  up: 0x22c55e,
  down: 0xef4444,
  neutral: 0x94a3b8,
  warn: 0xf59e0b,
  error: 0xdc2626,
};

export interface DiscordEmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

export interface DiscordEmbed {
  title?: string;
  url?: string;
  description?: string;
  color?: number;
  fields?: DiscordEmbedField[];
  thumbnail?: { url: string };
  image?: { url: string };
  footer?: { text: string };
}

export type DiscordButton =
  | { type: 2; style: 5; label: string; url: string }
  | { type: 2; style: 1 | 2 | 4; label: string; custom_id: string };

export interface DiscordSelect {
  type: 3;
  custom_id: string;
  placeholder: string;
  min_values: 1;
  max_values: 1;
  options: { label: string; value: string; default?: true }[];
}

export interface DiscordActionRow {
  type: 1;
  components: (DiscordButton | DiscordSelect)[];
}

export interface DiscordPayload {
  content?: string;
  embeds: DiscordEmbed[];
  components: DiscordActionRow[];
  allowed_mentions: { parse: [] };
  flags?: number;
  files?: { name: string; data: Uint8Array }[];
}

const EMPTY = '\u200b';
const STYLES = { primary: 1, secondary: 2, danger: 4 } as const;

/** Plain one-line text escaped for markdown and cut to `max` after escaping. */
function mdLine(text: string, max: number): string {
  const plain = singleLine(clean(text));
  let room = max;
  for (;;) {
    const out = escapeMarkdown(cut(plain, room));
    if (out.length <= max || room <= 1) return out.length <= max ? out : '';
    room -= out.length - max;
  }
}

function footerText(text: string | undefined): string | undefined {
  // Footers show no markdown, so only mentions need neutering.
  const out = text === undefined ? '' : cut(neuterMentions(singleLine(clean(text))), FOOTER_MAX);
  return out || undefined;
}

function cardEmbed(view: CardView): DiscordEmbed {
  const embed: DiscordEmbed = { title: mdLine(view.title, EMBED_TITLE_MAX) || EMPTY };
  const url = safeUrl(view.url);
  if (url) embed.url = url;
  const footer = footerText(view.footer);
  const fields = (view.fields ?? []).slice(0, EMBED_FIELDS_MAX).map((f) => ({
    name: mdLine(f.name, FIELD_NAME_MAX) || EMPTY,
    value: richMarkdown(f.value, FIELD_VALUE_MAX) || EMPTY,
    source: f.value,
    ...(f.inline === undefined ? {} : { inline: f.inline }),
  }));
  const size = (): number => fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  // Within the 6,000 total the description keeps up to ~1,000 characters; past
  // that, trim from the end: the last field first (shortened, then dropped).
  const budget = EMBED_TOTAL_MAX - embed.title!.length - (footer?.length ?? 0);
  const descKeep = Math.min(richMarkdown(view.description, EMBED_DESCRIPTION_MAX).length, 1000);
  const fieldRoom = budget - descKeep;
  while (fields.length > 0 && size() > fieldRoom) {
    const last = fields[fields.length - 1]!;
    const keep = last.value.length - (size() - fieldRoom);
    const value = keep >= 40 ? richMarkdown(last.source, keep) : '';
    if (value) last.value = value;
    else fields.pop();
  }
  const description = richMarkdown(view.description, Math.min(EMBED_DESCRIPTION_MAX, budget - size()));
  if (description) embed.description = description;
  if (fields.length) embed.fields = fields.map(({ source: _source, ...f }) => f);
  const thumb = safeUrl(view.thumbnailUrl);
  if (thumb) embed.thumbnail = { url: thumb };
  if (footer) embed.footer = { text: footer };
  return embed;
}

/** Backticks cannot close a code block from inside a cell if there are none. */
const codeCell = (text: string): string => neuterMentions(text.replace(/`/g, 'ˋ'));

function tableEmbed(view: TableView): DiscordEmbed {
  const title = mdLine(view.title, EMBED_TITLE_MAX) || EMPTY;
  const footer = footerText(view.footer);
  const room = Math.min(EMBED_DESCRIPTION_MAX, EMBED_TOTAL_MAX - title.length - (footer?.length ?? 0));
  const intro = richMarkdown(view.description, Math.min(1000, Math.floor(room / 4)));
  const t = layoutTable(view.columns, view.rows, { width: TABLE_WIDTH, maxColumn: 32, cell: codeCell });
  const notes = (view.notes ?? []).map((n) => richMarkdown(n, 300)).filter(Boolean);
  // Notes given one per row go with their rows; other notes fill what room is left.
  const perRow = notes.length === view.rows.length;
  const build = (k: number): string[] => {
    const parts = intro ? [intro] : [];
    parts.push(['```', t.header, t.rule, ...t.rows.slice(0, k), '```'].join('\n'));
    if (k < t.rows.length) parts.push(moreRows(t.rows.length - k));
    if (perRow) parts.push(...notes.slice(0, k));
    return parts;
  };
  const length = (parts: readonly string[]): number => parts.reduce((n, p) => n + p.length + 1, -1);
  // Whole rows only: drop rows (and their notes) from the end until it fits.
  let k = t.rows.length;
  let parts = build(k);
  while (length(parts) > room && k > 0) parts = build(--k);
  if (!perRow) {
    for (const note of notes) {
      if (length(parts) + 1 + note.length > room) break;
      parts.push(note);
    }
  }
  const embed: DiscordEmbed = { title, description: length(parts) <= room ? parts.join('\n') : EMPTY };
  if (footer) embed.footer = { text: footer };
  return embed;
}

function errorEmbed(view: ErrorView): DiscordEmbed {
  const message = richMarkdown(view.message, 3000);
  const example = view.example ? inlineCode(cut(singleLine(clean(view.example)), 900)) : '';
  const label = view.labels ? `${escapeMarkdown(cut(singleLine(clean(view.labels.example)), 40))} ` : '';
  return {
    description: example ? `${message}\n${label}${example}` : message || EMPTY,
    color: COLOURS.error,
  };
}

function components(view: View): DiscordActionRow[] {
  const links: DiscordButton[] = usableLinks(view)
    .filter((l) => l.url.length <= BUTTON_URL_MAX)
    .map((l) => ({ type: 2, style: 5, label: buttonLabel(l.label), url: l.url }));
  const usable = usableActions(view);
  for (const a of usable)
    if (a.id.length > (a.pick === undefined ? CUSTOM_ID_MAX : SELECT_VALUE_MAX)) {
      throw new RangeError(`Action "${a.label}" has a ${a.id.length}-character id; Discord allows ${CUSTOM_ID_MAX}`);
    }
  const actions: DiscordButton[] = usable
    .filter((a) => a.pick === undefined)
    .map((a) => ({ type: 2, style: STYLES[a.style ?? 'secondary'], label: buttonLabel(a.label), custom_id: a.id }));
  const rows: (DiscordButton | DiscordSelect)[][] = [
    ...selects(usable).map((s) => [s]),
    ...chunk(actions, BUTTONS_PER_ROW),
    ...chunk(links, BUTTONS_PER_ROW),
  ];
  return rows.slice(0, ROWS_MAX).map((r) => ({ type: 1, components: r }));
}

/** Each group of `pick` actions as one select menu, each option's value its action's id. */
function selects(actions: readonly (Action & { id: string })[]): DiscordSelect[] {
  const groups = new Map<string, (Action & { id: string })[]>();
  for (const a of actions) if (a.pick !== undefined) groups.set(a.pick, [...(groups.get(a.pick) ?? []), a]);
  return [...groups].map(([pick, group]) => {
    const options = group.slice(0, SELECT_OPTIONS_MAX).map((a) => ({
      label: cut(neuterMentions(singleLine(clean(a.label))), SELECT_OPTION_LABEL_MAX) || '•',
      value: a.id,
      ...(a.chosen ? { default: true as const } : {}),
    }));
    return {
      type: 3,
      custom_id: `${SELECT_PREFIX}${group[0]!.id}`.slice(0, CUSTOM_ID_MAX),
      placeholder: cut(singleLine(clean(pick)), SELECT_PLACEHOLDER_MAX) || '•',
      min_values: 1,
      max_values: 1,
      options,
    };
  });
}

function buttonLabel(label: string): string {
  // Labels show no mentions; neutering anyway keeps "no mention syntax anywhere" a simple rule.
  return cut(neuterMentions(singleLine(clean(label))), BUTTON_LABEL_MAX) || '•';
}

/**
 * A text within a message's content limit is the content; a longer one (the list of every command
 * in Spanish runs to 2,900 characters) goes whole in an embed's description, which holds 4,096.
 */
function putText(view: TextView, payload: DiscordPayload): void {
  const text = richMarkdown(view.text, EMBED_DESCRIPTION_MAX);
  if (text.length <= CONTENT_MAX) payload.content = text || EMPTY;
  else payload.embeds.push({ description: text });
}

export function toDiscordPayload(view: View, opts: { ephemeral?: boolean } = {}): DiscordPayload {
  const payload: DiscordPayload = { embeds: [], components: components(view), allowed_mentions: { parse: [] } };
  const colour = view.kind === 'card' || view.kind === 'table' ? view.colour : undefined;
  if (view.kind === 'card') payload.embeds.push(cardEmbed(view));
  else if (view.kind === 'table') payload.embeds.push(tableEmbed(view));
  else if (view.kind === 'error') payload.embeds.push(errorEmbed(view));
  else putText(view, payload);
  const embed = payload.embeds[0];
  if (embed && colour) embed.color = COLOURS[colour];
  const picture = view.kind === 'error' ? undefined : view.picture;
  if (picture) {
    const name = safeFileName(picture.name);
    payload.files = [{ name, data: picture.png }];
    if (embed) embed.image = { url: `attachment://${name}` };
  }
  if (opts.ephemeral || view.kind === 'error') payload.flags = EPHEMERAL_FLAG;
  return payload;
}

/** The payload under discord.js option names (`allowedMentions`, `files[].attachment`). */
export function toDiscordJsOptions(payload: DiscordPayload): {
  content?: string;
  embeds: DiscordEmbed[];
  components: DiscordActionRow[];
  allowedMentions: { parse: [] };
  flags?: number;
  files?: { attachment: Buffer; name: string }[];
} {
  const { allowed_mentions, files, ...rest } = payload;
  return {
    ...rest,
    allowedMentions: allowed_mentions,
    ...(files ? { files: files.map((f) => ({ attachment: Buffer.from(f.data), name: f.name })) } : {}),
  };
}
