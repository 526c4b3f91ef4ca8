import type { OperationName } from './names.ts';

/** Base of every error the API client throws. Messages never carry the API key or a URL. */
export class ApiError extends Error {
  readonly operation: OperationName;
  readonly status: number | undefined;
  constructor(operation: OperationName, message: string, options?: { status?: number; cause?: unknown }) {
    super(`${operation}: ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.operation = operation;
    this.status = options?.status;
  }
}

/** A parameter broke a rule of the spec; nothing was sent. */
export class ApiValidationError extends ApiError {
  readonly param: string;
  readonly rule: string;
  constructor(operation: OperationName, param: string, rule: string) {
    super(operation, param ? `invalid parameter "${param}": ${rule}` : `invalid parameters: ${rule}`);
    this.param = param;
    this.rule = rule;
  }
}

/** Upstream answered 400 (or another 4xx it did not declare). */
export class ApiBadRequestError extends ApiError {
  readonly upstreamMessage: string;
  constructor(operation: OperationName, status: number, upstreamMessage: string) {
    super(operation, `upstream rejected the request (${status})${upstreamMessage ? `: ${upstreamMessage}` : ''}`, {
      status,
    });
    this.upstreamMessage = upstreamMessage;
  }
}

/** Upstream refused the API key: an operator fault (wrong or revoked key), not a user one. */
export class ApiUnauthorizedError extends ApiError {
  readonly operatorFault = true;
  constructor(operation: OperationName, status: number) {
    super(operation, `the API key was refused by the upstream API (${status}); check the configured key`, { status });
  }
}

export class ApiNotFoundError extends ApiError {
  constructor(operation: OperationName, upstreamMessage: string) {
    super(
      operation,
      `not found (404)${upstreamMessage && upstreamMessage !== 'Not Found' ? `: ${upstreamMessage}` : ''}`,
      {
        status: 404,
      },
    );
  }
}

/** `too_large`: the body passed the client's size cap (KolClientOptions.maxBodyBytes). */
export type UnavailableKind =
  | 'network'
  | 'timeout'
  | 'rate_limited'
  | 'server_error'
  | 'unexpected_status'
  | 'too_large';

/**
 * Upstream could not give an answer in time: network error, timeout, 429 or 5xx that
 * outlasted the retries, or the caller's time budget ran out first.
 */
export class ApiUnavailableError extends ApiError {
  readonly kind: UnavailableKind;
  readonly attempts: number;
  readonly budgetExhausted: boolean;
  readonly retryAfterMs: number | undefined;
  constructor(
    operation: OperationName,
    kind: UnavailableKind,
    details: { attempts: number; budgetExhausted: boolean; status?: number; retryAfterMs?: number; cause?: unknown },
  ) {
    const what = details.status === undefined ? kind : `${kind} ${details.status}`;
    const why = details.budgetExhausted ? '; time budget exhausted' : '';
    super(operation, `upstream unavailable (${what}) after ${details.attempts} attempt(s)${why}`, {
      ...(details.status === undefined ? {} : { status: details.status }),
      cause: details.cause,
    });
    this.kind = kind;
    this.attempts = details.attempts;
    this.budgetExhausted = details.budgetExhausted;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** Upstream answered 2xx with a body that does not match the spec. */
export class ApiSchemaError extends ApiError {
  readonly path: string;
  readonly detail: string;
  readonly issueCount: number;
  constructor(operation: OperationName, path: string, detail: string, issueCount = 1) {
    const more = issueCount > 1 ? ` (+${issueCount - 1} more issue(s))` : '';
    super(operation, `${path}: ${detail}${more}`);
    this.path = path;
    this.detail = detail;
    this.issueCount = issueCount;
  }
}

/** The caller's AbortSignal fired; no retry follows. */
export class ApiAbortedError extends ApiError {
  constructor(operation: OperationName, reason?: unknown) {
    super(operation, 'call aborted by the caller', { cause: reason });
  }
}
