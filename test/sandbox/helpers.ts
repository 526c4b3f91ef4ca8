import type { TestContext } from 'node:test';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.ts';

export type Query = Record<string, string | number | boolean | Array<string | number> | undefined>;

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export async function start(t: TestContext, opts: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox(opts);
  t.after(() => sb.close());
  return sb;
}

export function qs(q: Query = {}): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) p.append(k, String(x));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

export async function get(
  sb: Sandbox,
  path: string,
  q?: Query,
  headers: Record<string, string> = { 'x-api-key': sb.apiKey },
): Promise<Res> {
  const r = await fetch(sb.url + path + qs(q), { headers });
  const text = await r.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: r.status, headers: r.headers, text, body };
}

/** GET that must succeed; returns the parsed body. */
export async function ok(sb: Sandbox, path: string, q?: Query): Promise<any> {
  const r = await get(sb, path, q);
  if (r.status !== 200) throw new Error(`GET ${path}${qs(q)} -> ${r.status} ${r.text.slice(0, 200)}`);
  return r.body;
}

export function enc(s: string): string {
  return encodeURIComponent(s);
}

/** Walks a cursor-paged operation to the end; returns every item in order. */
export async function walkCursor(
  sb: Sandbox,
  path: string,
  q: Query,
  between?: (page: number) => void,
): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const body = await ok(sb, path, { ...q, cursor });
    all.push(...body.items);
    if (body.next_cursor === null) return all;
    assertString(body.next_cursor);
    cursor = body.next_cursor;
    between?.(page);
  }
  throw new Error('cursor walk did not end');
}

/** Walks an offset-paged operation to the end. */
export async function walkOffset(
  sb: Sandbox,
  path: string,
  q: Query,
  limit: number,
): Promise<{ items: any[]; total: number }> {
  const items: any[] = [];
  let total = -1;
  for (let offset = 0; ; offset += limit) {
    const body = await ok(sb, path, { ...q, offset, limit });
    total = body.total;
    items.push(...body.items);
    if (body.items.length < limit) return { items, total };
  }
}

function assertString(v: unknown): asserts v is string {
  if (typeof v !== 'string' || v.length === 0)
    throw new Error(`next_cursor should be a non-empty string, got ${JSON.stringify(v)}`);
}

export const DECIMAL = /^-?\d+(\.\d+)?$/;

export function isSortedBy<T>(items: readonly T[], key: (x: T) => number, desc: boolean): boolean {
  for (let i = 1; i < items.length; i++) {
    const a = key(items[i - 1] as T);
    const b = key(items[i] as T);
    if (desc ? a < b : a > b) return false;
  }
  return true;
}
