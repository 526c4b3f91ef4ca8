import { snowflake } from './ids.ts';
import { asArray, asRecord } from './validate.ts';
import type { FakeAttachment, FakeMessage } from './types.ts';
import { NOBODY, type Notified } from './mentions.ts';

export interface UploadedFile {
  /** Form field name, e.g. files[0]. */
  key: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface NewMessage {
  channelId: string;
  guildId?: string;
  body: Record<string, unknown>;
  files: UploadedFile[];
  source: FakeMessage['source'];
  type?: number;
  flags?: number;
  webhookId?: string;
  applicationId?: string;
  interactionMetadata?: Record<string, unknown>;
  origin: string;
  /** Who it notifies (mentions.ts); nobody when not given. */
  notified?: Notified;
  /** A forum post's first message: its channel is the new thread, whose id is the message's. */
  threadOf?: string;
}

function fileIndex(key: string): string {
  const match = /^files\[(\d+)\]$/.exec(key) ?? /^file(\d*)$/.exec(key);
  return match?.[1] ?? key;
}

/**
 * Files become attachments the way Discord pairs them: `attachments[].id` in the JSON
 * names the `files[n]` part it describes (filename, description).
 */
function attachmentsFrom(
  files: UploadedFile[],
  body: Record<string, unknown>,
  channelId: string,
  origin: string,
): FakeAttachment[] {
  const described = asArray(body['attachments']).map(asRecord);
  return files.map((file) => {
    const index = fileIndex(file.key);
    const meta = described.find((a) => String(a['id']) === index) ?? {};
    const id = snowflake();
    const filename = typeof meta['filename'] === 'string' ? meta['filename'] : file.filename;
    const attachment: FakeAttachment = {
      id,
      filename,
      size: file.data.length,
      url: `${origin}/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`,
      data: file.data,
    };
    if (file.contentType) attachment.content_type = file.contentType;
    if (typeof meta['description'] === 'string') attachment.description = meta['description'];
    return attachment;
  });
}

export class MessageStore {
  readonly byId = new Map<string, FakeMessage>();
  readonly byChannel = new Map<string, FakeMessage[]>();
  readonly #nonces = new Map<string, { id: string; at: number }>();
  readonly #nonceWindowMs: number;

  constructor(nonceWindowMs: number) {
    this.#nonceWindowMs = nonceWindowMs;
  }

  /**
   * Discord's enforce_nonce dedupes per author (the bot is the only author here), not per
   * channel; a hit on a deleted message answers Unknown Message.
   */
  findByNonce(nonce: unknown, now: number): FakeMessage | 'deleted' | undefined {
    if (nonce === undefined || nonce === null) return undefined;
    const hit = this.#nonces.get(String(nonce));
    if (!hit || now - hit.at > this.#nonceWindowMs) return undefined;
    const message = this.byId.get(hit.id);
    return !message || message.deleted ? 'deleted' : message;
  }

  create(input: NewMessage): FakeMessage {
    const { body } = input;
    const id = snowflake();
    const channelId = input.threadOf === undefined ? input.channelId : id;
    const message: FakeMessage = {
      id,
      type: input.type ?? 0,
      channel_id: channelId,
      content: typeof body['content'] === 'string' ? body['content'] : '',
      embeds: asArray(body['embeds']).map((e) => ({ type: 'rich', ...asRecord(e) })),
      components: asArray(body['components']).map(asRecord),
      attachments: attachmentsFrom(input.files, body, channelId, input.origin),
      flags: input.flags ?? (typeof body['flags'] === 'number' ? body['flags'] : 0),
      tts: body['tts'] === true,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      source: input.source,
      edits: 0,
      shown: [],
      deleted: false,
      notified: input.notified ?? NOBODY,
      crossposted: false,
    };
    message.shown.push(visibleText(message));
    if (input.guildId !== undefined) message.guild_id = input.guildId;
    if (typeof body['nonce'] === 'string' || typeof body['nonce'] === 'number') message.nonce = body['nonce'];
    if (body['enforce_nonce'] === true) message.enforce_nonce = true;
    if (body['allowed_mentions'] !== undefined) message.allowed_mentions = body['allowed_mentions'];
    if (body['message_reference'] !== undefined) message.message_reference = body['message_reference'];
    if (input.webhookId !== undefined) message.webhook_id = input.webhookId;
    if (input.applicationId !== undefined) message.application_id = input.applicationId;
    if (input.interactionMetadata !== undefined) message.interaction_metadata = input.interactionMetadata;
    this.byId.set(id, message);
    if (input.source === 'channel') {
      let list = this.byChannel.get(channelId);
      if (!list) {
        list = [];
        this.byChannel.set(channelId, list);
      }
      list.push(message);
      if (message.enforce_nonce && message.nonce !== undefined) {
        this.#nonces.set(String(message.nonce), { id, at: Date.now() });
      }
    }
    return message;
  }

  /** Applies an edit body: only fields present change; `attachments` lists the ones to keep. */
  edit(message: FakeMessage, body: Record<string, unknown>, files: UploadedFile[], origin: string): FakeMessage {
    if ('content' in body) message.content = typeof body['content'] === 'string' ? body['content'] : '';
    if ('embeds' in body) message.embeds = asArray(body['embeds']).map((e) => ({ type: 'rich', ...asRecord(e) }));
    if ('components' in body) message.components = asArray(body['components']).map(asRecord);
    if ('allowed_mentions' in body) message.allowed_mentions = body['allowed_mentions'];
    if (typeof body['flags'] === 'number') message.flags = (message.flags & ~4) | (body['flags'] & 4);
    const added = attachmentsFrom(files, body, message.channel_id, origin);
    if ('attachments' in body) {
      const keep = new Set(asArray(body['attachments']).map((a) => String(asRecord(a)['id'])));
      message.attachments = message.attachments.filter((a) => keep.has(a.id));
    }
    message.attachments.push(...added);
    message.flags &= ~128;
    message.edits += 1;
    message.shown.push(visibleText(message));
    message.edited_timestamp = new Date().toISOString();
    return message;
  }

  /** The message as Discord's REST API and gateway present it. */
  toApi(message: FakeMessage, author: Record<string, unknown>): Record<string, unknown> {
    const api: Record<string, unknown> = {
      id: message.id,
      type: message.type,
      channel_id: message.channel_id,
      author,
      content: message.content,
      timestamp: message.timestamp,
      edited_timestamp: message.edited_timestamp,
      tts: message.tts,
      mention_everyone: message.notified.everyone,
      mentions: [],
      mention_roles: message.notified.roles,
      attachments: message.attachments.map(({ data: _data, ...rest }) => rest),
      embeds: message.embeds,
      pinned: false,
      flags: message.flags,
      components: message.components,
    };
    if (message.guild_id !== undefined) api['guild_id'] = message.guild_id;
    if (message.nonce !== undefined) api['nonce'] = message.nonce;
    if (message.webhook_id !== undefined) api['webhook_id'] = message.webhook_id;
    if (message.application_id !== undefined) api['application_id'] = message.application_id;
    if (message.interaction_metadata !== undefined) api['interaction_metadata'] = message.interaction_metadata;
    if (message.message_reference !== undefined) api['message_reference'] = message.message_reference;
    return api;
  }
}

/** The text a member sees on a message, for tests that ask what was ever shown. */
function visibleText(m: FakeMessage): string {
  const embeds = m.embeds.map((e) => [e['title'], e['description']].filter((x) => typeof x === 'string').join('\n'));
  return [m.content, ...embeds].filter(Boolean).join('\n');
}
