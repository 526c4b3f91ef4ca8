import type { UploadedFile } from './messages.ts';
import type { FakeState } from './state.ts';

export interface Ctx {
  state: FakeState;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** Raw JSON body when it is an array (command registration). */
  list: unknown[] | undefined;
  files: UploadedFile[];
  now: number;
}

/** json undefined = empty body and no Content-Type, as Discord answers 204. */
export interface Reply {
  status: number;
  json?: unknown;
  /** Headers of this answer, over the rate limiter's (a 429 a handler decides, as the hourly crosspost limit). */
  headers?: Record<string, string>;
}

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export function error(status: number, code: number, message: string): Reply {
  return { status, json: { message, code } };
}

export const unknownMessage = (): Reply => error(404, 10008, 'Unknown Message');
