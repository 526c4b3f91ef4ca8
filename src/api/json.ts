import { z } from 'zod';

/**
 * A JSON number whose source text differs from what JS would print for it
 * (integers above 2^53, decimals with more digits than a double holds, "1.50").
 * The reviver keeps the source so decimal and id fields can stay exact.
 */
class LosslessNumber {
  readonly source: string;
  readonly value: number;
  constructor(source: string, value: number) {
    this.source = source;
    this.value = value;
  }
}

type SourceReviver = (key: string, value: unknown, context?: { source?: string }) => unknown;
// The lib typings predate the reviver's third argument (Node 22+ passes it).
const parseWithSource = JSON.parse as (text: string, reviver: SourceReviver) => unknown;

export function parseJsonLossless(text: string): unknown {
  return parseWithSource(text, (_key, value, context) => {
    if (typeof value !== 'number' || context?.source === undefined) return value;
    return context.source === String(value) ? value : new LosslessNumber(context.source, value);
  });
}

export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof LosslessNumber) return 'number';
  return typeof v;
}

const expected = (what: string) => (iss: { input?: unknown }) =>
  `expected ${what}, received ${describeType(iss.input)}`;

const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DIGITS = /^\d+$/;

function isNum(v: unknown): v is number | LosslessNumber {
  return (typeof v === 'number' && Number.isFinite(v)) || v instanceof LosslessNumber;
}
const numValue = (v: number | LosslessNumber): number => (typeof v === 'number' ? v : v.value);

/** A JSON number field. */
export const num = z
  .custom<number | LosslessNumber>((v) => isNum(v) && Number.isFinite(numValue(v)), { error: expected('number') })
  .transform(numValue);

/** A JSON integer field that is a count or code, not an id. */
export const int = z
  .custom<number | LosslessNumber>((v) => isNum(v) && Number.isInteger(numValue(v)), { error: expected('integer') })
  .transform(numValue);

/** A decimal kept as its exact text; a JSON number is accepted and turned into its source text. */
export const dec = z
  .custom<string | number | LosslessNumber>((v) => (typeof v === 'string' && DECIMAL.test(v.trim())) || isNum(v), {
    error: expected('decimal string'),
  })
  .transform((v) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : v.source));

/** A 64-bit integer id, exposed as its exact digit string. */
export const id = z
  .custom<string | number | LosslessNumber>(
    (v) =>
      (typeof v === 'string' && DIGITS.test(v)) ||
      (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) ||
      (v instanceof LosslessNumber && DIGITS.test(v.source)),
    { error: expected('integer id') },
  )
  .transform((v) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : v.source));

/** An id the spec types as a free string (e.g. the statistic id); numbers are tolerated. */
export const textId = z
  .custom<string | number | LosslessNumber>(
    (v) => (typeof v === 'string' && v.length > 0) || (isNum(v) && Number.isInteger(numValue(v))),
    { error: expected('id string') },
  )
  .transform((v) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : v.source));

/** ISO 8601 timestamps stay strings; only their presence and type are checked. */
export const timestamp = z.string({ error: expected('ISO 8601 timestamp string') });

export const str = z.string({ error: expected('string') });
export const bool = z.boolean({ error: expected('boolean') });
export const strArray = z.array(str, { error: expected('array') });
