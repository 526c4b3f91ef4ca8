/**
 * The renderer's payload shaped for each way discord.js sends it: a first
 * reply, an edit of an existing message, an ephemeral follow-up, or a raw REST
 * channel message. Mentions stay disabled in every shape.
 */
import type { RawFile } from 'discord.js';
import { EPHEMERAL_FLAG, toDiscordJsOptions, type DiscordPayload } from '../../views/render/discord.ts';

export const NO_MENTIONS = { parse: [] as [] };

type JsOptions = ReturnType<typeof toDiscordJsOptions>;

/** A first answer (interaction callback type 4): flags carry ephemerality. */
export function replyOptions(payload: DiscordPayload): JsOptions {
  return { ...toDiscordJsOptions(payload), allowedMentions: NO_MENTIONS };
}

/**
 * An edit replaces the whole message: content is cleared when the new view has
 * none, and `attachments: []` drops the previous picture (new files are added
 * after it), so a page without a chart does not keep the last page's chart.
 * Flags are left out: ephemerality cannot change after the first answer.
 */
export function editOptions(payload: DiscordPayload) {
  const { flags: _flags, ...rest } = toDiscordJsOptions(payload);
  return { ...rest, content: rest.content ?? null, attachments: [], allowedMentions: NO_MENTIONS };
}

/** A follow-up only the clicking or typing user sees. */
export function ephemeralOptions(payload: DiscordPayload): JsOptions & { flags: number } {
  return { ...toDiscordJsOptions(payload), flags: EPHEMERAL_FLAG, allowedMentions: NO_MENTIONS };
}

/** Body and files for `POST /channels/:id/messages`, with an enforced nonce so a resend is idempotent. */
export function channelMessage(
  payload: DiscordPayload,
  nonce: string,
): { body: Record<string, unknown>; files?: RawFile[] } {
  const { files, flags: _flags, ...rest } = payload;
  const body: Record<string, unknown> = { ...rest, allowed_mentions: NO_MENTIONS, nonce, enforce_nonce: true };
  if (!files?.length) return { body };
  // Discord pairs `attachment://name` in embeds with uploaded parts through this list.
  body['attachments'] = files.map((f, i) => ({ id: i, filename: f.name }));
  return { body, files: files.map((f) => ({ name: f.name, data: Buffer.from(f.data), contentType: 'image/png' })) };
}
