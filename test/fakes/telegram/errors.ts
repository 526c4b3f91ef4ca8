// Every failure the fake answers is one of these, so the HTTP layer can turn it
// into Telegram's `{ok:false, error_code, description, parameters?}` shape with
// the matching HTTP status in one place.

export interface ResponseParameters {
  retry_after?: number;
  migrate_to_chat_id?: number;
}

export class ApiError extends Error {
  readonly code: number;
  readonly description: string;
  readonly parameters: ResponseParameters | undefined;

  constructor(code: number, description: string, parameters?: ResponseParameters) {
    super(description);
    this.code = code;
    this.description = description;
    this.parameters = parameters;
  }

  toJSON(): { ok: false; error_code: number; description: string; parameters?: ResponseParameters } {
    const body: { ok: false; error_code: number; description: string; parameters?: ResponseParameters } = {
      ok: false,
      error_code: this.code,
      description: this.description,
    };
    if (this.parameters) body.parameters = this.parameters;
    return body;
  }
}

export function badRequest(what: string, parameters?: ResponseParameters): ApiError {
  return new ApiError(400, `Bad Request: ${what}`, parameters);
}

export function forbidden(what: string): ApiError {
  return new ApiError(403, `Forbidden: ${what}`);
}

export function tooManyRequests(retryAfter: number): ApiError {
  return new ApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
}

export const unauthorized = (): ApiError => new ApiError(401, 'Unauthorized');
export const notFound = (): ApiError => new ApiError(404, 'Not Found');
export const chatNotFound = (): ApiError => badRequest('chat not found');

export const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';
