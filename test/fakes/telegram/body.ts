// Request decoding. Telegram accepts the same parameters as JSON, query string,
// urlencoded or multipart form; in the form encodings every value is a string
// (objects JSON-encoded), so they are normalised here to what JSON would carry.
import type { IncomingMessage } from 'node:http';
import { badRequest } from './errors.ts';

export interface UploadedFile {
  filename: string | undefined;
  data: Buffer;
}

export interface DecodedRequest {
  params: Record<string, unknown>;
  /** Multipart file parts by field name (grammY names them by a random attach:// id). */
  files: Map<string, UploadedFile>;
}

const MAX_BODY = 60 * 1024 * 1024;

const JSON_FIELDS = new Set([
  'reply_markup',
  'entities',
  'caption_entities',
  'media',
  'commands',
  'scope',
  'allowed_updates',
  'reply_parameters',
  'link_preview_options',
]);
const INT_FIELDS = new Set([
  'chat_id',
  'message_id',
  'user_id',
  'offset',
  'limit',
  'timeout',
  'cache_time',
  'reply_to_message_id',
  'message_thread_id',
  'max_connections',
]);
const BOOL_FIELDS = new Set([
  'show_alert',
  'disable_notification',
  'protect_content',
  'drop_pending_updates',
  'has_spoiler',
  'allow_sending_without_reply',
  'disable_web_page_preview',
  'show_caption_above_media',
]);

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw badRequest('request entity too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

function normalise(key: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (JSON_FIELDS.has(key)) {
    try {
      return JSON.parse(value);
    } catch {
      throw badRequest(`can't parse ${key} JSON object`);
    }
  }
  if (INT_FIELDS.has(key) && /^-?\d+$/.test(value)) return Number(value);
  if (BOOL_FIELDS.has(key) && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function fromStrings(entries: Iterable<[string, string]>, params: Record<string, unknown>): void {
  for (const [k, v] of entries) params[k] = normalise(k, v);
}

export function decodeRequest(contentType: string | undefined, query: URLSearchParams, body: Buffer): DecodedRequest {
  const params: Record<string, unknown> = {};
  const files = new Map<string, UploadedFile>();
  fromStrings(query, params);
  const type = (contentType ?? '').toLowerCase();
  if (body.length === 0) return { params, files };
  if (type.startsWith('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw badRequest("can't parse JSON object");
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw badRequest("can't parse JSON object");
    Object.assign(params, parsed);
  } else if (type.startsWith('application/x-www-form-urlencoded')) {
    fromStrings(new URLSearchParams(body.toString('utf8')), params);
  } else if (type.startsWith('multipart/form-data')) {
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
    const b = boundary?.[1] ?? boundary?.[2];
    if (!b) throw badRequest('multipart boundary not found');
    for (const part of parseMultipart(body, b)) {
      if (part.filename !== undefined) files.set(part.name, { filename: part.filename, data: part.data });
      else params[part.name] = normalise(part.name, part.data.toString('utf8'));
    }
  }
  return { params, files };
}

interface Part {
  name: string;
  filename: string | undefined;
  data: Buffer;
}

/** A small RFC 7578 reader; grammY writes headers without spaces and filenames unquoted, so be lenient. */
export function parseMultipart(body: Buffer, boundary: string): Part[] {
  const parts: Part[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw badRequest("can't parse multipart body");
  pos += delimiter.length;
  for (;;) {
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return parts; // closing "--"
    if (body[pos] === 0x0d && body[pos + 1] === 0x0a) pos += 2;
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    const end = body.indexOf(next, headerEnd);
    if (headerEnd < 0 || end < 0) throw badRequest("can't parse multipart body");
    const headers = body.subarray(pos, headerEnd).toString('utf8');
    const disposition = /content-disposition:\s*form-data(.*)/i.exec(headers)?.[1] ?? '';
    const name = /;\s*name=(?:"([^"]*)"|([^;\r\n]+))/i.exec(disposition);
    const filename = /;\s*filename=(?:"([^"]*)"|([^;\r\n]+))/i.exec(disposition);
    parts.push({
      name: (name?.[1] ?? name?.[2] ?? '').trim(),
      filename: filename ? (filename[1] ?? filename[2] ?? '').trim() : undefined,
      data: body.subarray(headerEnd + 4, end),
    });
    pos = end + next.length;
  }
}
