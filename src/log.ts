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

export function createLogger(opts: LoggerOptions): Logger {
  const secrets = [...opts.secrets].sort((a, b) => b.length - a.length);
  const target = opts.destination ?? process.stderr;
  const stream = { write: (line: string) => target.write(secrets.length ? scrub(line, secrets) : line) };
  return pino(
    {
      level: opts.level,
      base: undefined,
      redact: {
        paths: ['apiKey', 'token', '*.apiKey', '*.token', 'headers["x-api-key"]', '*.headers["x-api-key"]', 'authorization'],
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
