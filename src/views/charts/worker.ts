/** A render worker: chart jobs in, PNG bytes out (moved, not copied). */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { ChartKind } from '../../domain/charts.ts';
import { drawChart } from './draw.ts';

export interface Job {
  readonly id: number;
  readonly kind: ChartKind;
  readonly input: unknown;
}

export type Reply = { readonly id: number; readonly png: Uint8Array } | { readonly id: number; readonly error: string };

// Linux keeps a nice value per thread: this lowers the drawing thread only, so on
// a busy host commands on the main thread get the CPU first. Elsewhere, best effort.
try {
  setPriority(0, 10);
} catch {
  // not permitted here: pictures just compete as equals
}

const port = parentPort;
if (!port) throw new Error('charts/worker.ts runs as a worker thread only');
port.on('message', (job: Job) => {
  let reply: Reply;
  try {
    const png = drawChart(job.kind, job.input as never);
    // Only a buffer of its own may be moved: a small Buffer can sit in Node's shared pool.
    reply = { id: job.id, png: png.byteOffset === 0 && png.byteLength === png.buffer.byteLength ? png : png.slice() };
  } catch (err) {
    reply = { id: job.id, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply, 'png' in reply ? [reply.png.buffer as ArrayBuffer] : []);
});
