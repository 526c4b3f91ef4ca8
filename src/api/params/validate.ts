import type { z } from 'zod';
import { ApiValidationError } from '../errors.ts';
import type { OperationName } from '../names.ts';

/** Parses call parameters; the first broken rule becomes an ApiValidationError naming the parameter. */
export function validateParams<S extends z.ZodType>(operation: OperationName, schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (!issue) throw new ApiValidationError(operation, '', 'rejected');
  if (issue.code === 'unrecognized_keys') {
    throw new ApiValidationError(operation, issue.keys.join(', '), 'is not a parameter of this operation');
  }
  const param = issue.path.length > 0 ? String(issue.path[0]) : '';
  if (param && !isPresent(input, param)) {
    throw new ApiValidationError(operation, param, 'is required');
  }
  if (!param) throw new ApiValidationError(operation, '', 'must be an object');
  throw new ApiValidationError(operation, param, issue.message);
}

function isPresent(input: unknown, key: string): boolean {
  return typeof input === 'object' && input !== null && key in input && Reflect.get(input, key) !== undefined;
}
