import { z } from 'zod';
import { CHAINS } from '../../domain/chains.ts';

// Each rule's error text is the rule itself, so ApiValidationError can name it verbatim.

export function intRange(min: number, max?: number) {
  const rule = max === undefined ? `must be an integer >= ${min}` : `must be an integer from ${min} to ${max}`;
  const base = z.number({ error: rule }).int({ error: rule }).min(min, { error: rule });
  return max === undefined ? base : base.max(max, { error: rule });
}

export const offset = intRange(0);

const NUMERIC = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const numericRule = 'must be a numeric string (e.g. "1000" or "0.5")';

/** Bounds the spec types as strings: numeric text, or a finite number turned into text. */
export const numericString = z
  .union(
    [
      z.string({ error: numericRule }).trim().regex(NUMERIC, { error: numericRule }),
      z.number({ error: numericRule }).refine(Number.isFinite, { error: numericRule }),
    ],
    { error: numericRule },
  )
  .transform((v) => String(v));

/** Bounds the spec types as numbers. */
export const numberBound = z.number({ error: 'must be a finite number' }).refine(Number.isFinite, {
  error: 'must be a finite number',
});

export const chainId = z.enum(CHAINS, { error: `must be one of ${CHAINS.join(', ')}` });

export const sortOrder = z.enum(['ASC', 'DESC'], { error: 'must be ASC or DESC' });
/** The tweet operations document a lower-case default (`desc`); either case is taken there. */
export const sortOrderLower = z.enum(['asc', 'desc', 'ASC', 'DESC'], { error: 'must be asc or desc' });

export function sortField<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

export const flag = z.boolean({ error: 'must be a boolean' });

export const text = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(256, { error: 'must be at most 256 characters' });

/** Twitter ids exceed 2^53, so a JS number could already have lost digits: only digit strings. */
export const xUserId = z
  .string({ error: 'must be a Twitter id as a digit string (a JS number cannot hold every id exactly)' })
  .regex(/^\d{1,20}$/, { error: 'must be a Twitter id as a digit string of 1 to 20 digits' });

const stringList = z.array(text, { error: 'must be an array of non-empty strings' }).max(50, {
  error: 'must have at most 50 entries',
});

/** Sent as repeated keys; a lone string is accepted as a one-entry list. */
export const list = z.union([text.transform((s) => [s]), stringList], {
  error: 'must be a non-empty string or an array of non-empty strings',
});

export const chainList = z.union([chainId.transform((c) => [c]), z.array(chainId).max(CHAINS.length)], {
  error: `must be a ChainId or an array of ChainIds (${CHAINS.join(', ')})`,
});

type Bounds = Readonly<Record<string, unknown>>;

/** Adds "min must not exceed max" for each named pair of bounds. */
export function boundPairs(pairs: readonly (readonly [string, string])[]) {
  return (value: Bounds, ctx: z.RefinementCtx) => {
    for (const [lo, hi] of pairs) {
      const a = value[lo];
      const b = value[hi];
      if (a === undefined || b === undefined) continue;
      if (Number(a) > Number(b)) {
        ctx.addIssue({ code: 'custom', path: [hi], message: `must be >= ${lo} (${String(a)})` });
      }
    }
  };
}

/** ["minFoo","maxFoo"] pairs from the suffixes of a spec table. */
export function pairsOf(...suffixes: string[]): (readonly [string, string])[] {
  return suffixes.map((s) => [`min${s}`, `max${s}`] as const);
}
