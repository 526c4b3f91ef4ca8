/**
 * Structured logging to stderr (stdout belongs to the console adapter's replies).
 * Secrets are scrubbed from every line by value, not only by key, because a token
 * can hide inside an error message or a URL that a library logs.
 */
import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

export interface LoggerOptions {
  readonly level: LevelWithSilent;
  /** Values that must never appear in a log line (API key, bot tokens). */
  readonly secrets: readonly string[];
  /** Where lines go; stderr by default. Tests pass a collecting stream. */
  readonly destination?: { write(line: string): unknown };
}

const REDACTED = '[redacted]';

/** Replaces every occurrence of each secret (and its URL-encoded form) in `text`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 6) continue; // too short to scrub without mangling ordinary text
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(REDACTED);
  }
  return out;
}

/**
 * The one way an error becomes log fields, installed as pino's `err`
 * serializer: log `{ err }` and nothing else. Name, message and stack, and the
 * facts platform and API errors carry (code, HTTP status, Telegram's method and
 * description, the code of the cause). Never an error's payload, request body,
 * URL or headers: they hold user text and, in Discord's interaction URLs, tokens.
 * Already-made fields (a plain object) pass through unchanged.
 */
export function errorFields(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error))
    return typeof err === 'object' && err !== null ? (err as Record<string, unknown>) : { value: String(err) };
  const e = err as Error & Record<string, unknown>;
  const out: Record<string, unknown> = { name: e.name, message: e.message };
  for (const k of ['code', 'status', 'operation', 'method', 'error_code', 'description'] as const)
    if (e[k] !== undefined) out[k] = e[k];
  // grammY's HttpError keeps its cause in `error`.
  const cause = e.cause ?? e['error'];
  if (typeof cause === 'object' && cause !== null && 'code' in cause) out['cause'] = (cause as { code: unknown }).code;
  if (e.stack) out['stack'] = e.stack;
  return out;
}

export function createLogger(opts: LoggerOptions): Logger {
  const secrets = [...opts.secrets].sort((a, b) => b.length - a.length);
  const target = opts.destination ?? process.stderr;
  const stream = { write: (line: string) => target.write(secrets.length ? scrub(line, secrets) : line) };
  return pino(
    {
      level: opts.level,
      base: undefined,
      serializers: { err: errorFields },
      redact: {
        paths: [
          'apiKey',
          'token',
          '*.apiKey',
          '*.token',
          'headers["x-api-key"]',
          '*.headers["x-api-key"]',
          'authorization',
        ],
        censor: REDACTED,
      },
    },
    stream,
  );
}

/** A logger that drops everything: for tests and library defaults. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
