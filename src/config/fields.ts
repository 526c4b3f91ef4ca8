/**
 * The value shapes environment variables share (a trimmed optional string, a URL,
 * a port, a listen address, a wait, a count), so every area's schema (config.ts
 * and its neighbours here) reads a variable the same way and words its refusal
 * the same way. Each leaves an empty value as unset.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

export const optionalString = z
  .string()
  .transform((s) => s.trim())
  .optional()
  .transform((s) => (s === undefined || s === '' ? undefined : s));

export const optionalUrl = optionalString.pipe(
  z
    .string()
    .refine((s) => URL.canParse(s), 'must be an absolute URL such as https://example.com')
    .transform((s) => s.replace(/\/+$/, ''))
    .optional(),
);

/** A TCP port; 0 asks the OS for a free one where `min` allows it. */
export const port = (min: number) =>
  optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a port number')
      .transform(Number)
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(65535, 'must be at most 65535'))
      .optional(),
  );

/** How long start-up waits for something it cannot run without: 30s, 30 (seconds) or 1500ms. */
export const startWait = optionalString.pipe(
  z
    .string()
    .regex(/^\d+(\.\d+)?(ms|s)?$/, 'must be a duration such as 30s, 30 (seconds) or 1500ms')
    .transform((s) => (s.endsWith('ms') ? Number(s.slice(0, -2)) : Number(s.replace(/s$/, '')) * 1000))
    .pipe(z.number().min(1000, 'must be at least 1s').max(3_600_000, 'must be at most 3600s'))
    .optional(),
);

/** An interface address to listen on; the default 127.0.0.1 keeps a server off the network until asked. */
export const host = optionalString.pipe(
  z
    .string()
    .refine((s) => isIP(s) !== 0 || s === 'localhost', 'must be an IP address such as 127.0.0.1, ::1 or 0.0.0.0')
    .optional(),
);

/** Where a server listens unless told otherwise: this machine only. */
export const DEFAULT_HOST = '127.0.0.1';

/** A whole number from 1 to `max`, `what` naming its unit in the refusal. */
export const wholeNumber = (max: number, what = 'a whole number') =>
  optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, `must be ${what}`)
      .transform(Number)
      .pipe(z.number().int().min(1, 'must be at least 1').max(max, `must be at most ${max}`))
      .optional(),
  );

/** A limit an operator sets: a whole number from 1 to a million. */
export const quota = wholeNumber(1_000_000);

/** true or false, left as text for the caller to compare. */
export const flag = optionalString.pipe(z.enum(['true', 'false'], { error: 'must be true or false' }).optional());
