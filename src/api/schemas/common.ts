import { z } from 'zod';
import { CHAINS } from '../../domain/chains.ts';
import { describeType } from '../json.ts';

export const expected = (what: string) => (iss: { input?: unknown }) =>
  `expected ${what}, received ${describeType(iss.input)}`;

export function obj<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape, { error: expected('object') });
}

export function arr<T extends z.ZodType>(item: T) {
  return z.array(item, { error: expected('array') });
}

export const chain = z.enum(CHAINS, {
  error: (iss) =>
    `expected one of ${CHAINS.join(', ')}, received ${typeof iss.input === 'string' ? JSON.stringify(iss.input) : describeType(iss.input)}`,
});

/** A field the spec lists but whose non-null shape it does not show: it must be present, any value goes. */
export const opaque = z.custom<unknown>((v) => v !== undefined, {
  error: 'expected a value (null allowed), received undefined',
});

/**
 * On list envelopes: how many rows the client dropped because they did not parse
 * (see decodeResult). Set by the client only; never read from the upstream.
 */
export const listNote = { unreadable: z.number().int().optional().catch(undefined) };
