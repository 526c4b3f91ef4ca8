/**
 * Request bodies on the bot's public HTTP entry points (Discord interactions,
 * the Telegram webhook), read so that nobody can hold the bot's memory or
 * time: one body is capped, it must arrive within a short deadline (Discord
 * and Telegram send theirs at once), and all bodies being read together share
 * one byte budget. When a new body does not fit, the body that has been
 * reading longest is dropped first: a genuine body finishes within
 * milliseconds, so the oldest unfinished one is the slow one.
 *
 * Written by hand rather than with a body-parser middleware: the budget shared
 * across requests and the eviction are the point, and no such library has them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface BodyLimits {
  /** Largest body accepted, in bytes. */
  readonly maxBytes: number;
  /** Bytes all bodies being read at once may hold together. */
  readonly budgetBytes: number;
  /** Time a body has to arrive in full, from when its reading starts. */
  readonly deadlineMs: number;
}

/** Why a body was not read: too large (413), too slow (408), pushed out or no room (503), or the client went away. */
export type BodyRefusal = 'too_large' | 'slow' | 'busy' | 'aborted';
export type BodyResult = { readonly body: Buffer } | { readonly refused: BodyRefusal };

export const REFUSAL_STATUS: Readonly<Record<BodyRefusal, number>> = {
  too_large: 413,
  slow: 408,
  busy: 503,
  aborted: 400,
};

export interface BodyReader {
  read(req: IncomingMessage): Promise<BodyResult>;
  /** Bytes reserved by bodies being read now (declared lengths count in full): never over budgetBytes. */
  held(): number;
  /** The most held at once since the start: what a flood test reads. */
  peak(): number;
  /** Bodies being read now. */
  reading(): number;
}

interface Reading {
  reserved: number;
  finish(r: BodyResult): void;
  readonly req: IncomingMessage;
}

export function createBodyReader(l: BodyLimits): BodyReader {
  // Insertion order is age: the first entry has been reading longest.
  const active = new Set<Reading>();
  let held = 0;
  let peak = 0;

  /** Makes room for `bytes` more for `me`, dropping the oldest other readers; false when it cannot fit. */
  function reserve(me: Reading, bytes: number): boolean {
    for (const other of active) {
      if (held + bytes <= l.budgetBytes) break;
      if (other === me) continue;
      other.finish({ refused: 'busy' });
    }
    if (held + bytes > l.budgetBytes) return false;
    held += bytes;
    me.reserved += bytes;
    peak = Math.max(peak, held);
    return true;
  }

  function read(req: IncomingMessage): Promise<BodyResult> {
    const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    if (declared !== undefined && !(declared <= l.maxBytes)) return Promise.resolve({ refused: 'too_large' });
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const me: Reading = {
        reserved: 0,
        req,
        finish(r) {
          if (!active.delete(me)) return;
          held -= me.reserved;
          me.reserved = 0;
          clearTimeout(timer);
          req.off('data', onData);
          chunks.length = 0;
          // A refused body is not drained: nothing more is read off its connection, which closes
          // once the caller has answered (if it can); under load the answer can take a while.
          if ('refused' in r) {
            req.pause();
            req.socket?.pause();
          }
          resolve(r);
        },
      };
      active.add(me);
      const timer = setTimeout(() => me.finish({ refused: 'slow' }), l.deadlineMs);
      timer.unref();
      // A declared length is reserved at once: a second body that could not fit is refused before it is read.
      if (declared !== undefined && !reserve(me, declared)) return me.finish({ refused: 'busy' });
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > l.maxBytes) return me.finish({ refused: 'too_large' });
        if (size > me.reserved && !reserve(me, size - me.reserved)) return me.finish({ refused: 'busy' });
        chunks.push(chunk);
      };
      req.on('data', onData);
      req.once('end', () => me.finish({ body: Buffer.concat(chunks, size) }));
      req.once('error', () => me.finish({ refused: 'aborted' }));
      req.once('close', () => {
        if (!req.complete) me.finish({ refused: 'aborted' });
      });
    });
  }

  return { read, held: () => held, peak: () => peak, reading: () => active.size };
}

/**
 * Refuses a request without reading (the rest of) its body: the answer, then
 * the connection closed, so an unauthenticated or oversized upload stops here.
 */
export function refuseAndClose(res: ServerResponse, status: number, body = '', type = 'text/plain'): void {
  if (res.headersSent || res.destroyed) return void res.socket?.destroy();
  res.writeHead(status, { connection: 'close', 'content-type': type }).end(body, () => res.socket?.destroy());
}
