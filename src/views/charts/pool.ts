/**
 * Pictures off the event loop: a few worker threads draw charts (layout, SVG,
 * raster, PNG: tens of ms of CPU for a big mindmap) so that other users'
 * commands, buttons and the Discord heartbeat never wait behind one.
 * The queue is bounded: past it a picture is refused at once (ChartPoolBusy)
 * and the answer goes out without it. Hand-written rather than a pool library:
 * one job type, and ~80 lines with the bound and the refusal we need.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ChartPool } from '../../domain/charts.ts';
import type { Job, Reply } from './worker.ts';

export class ChartPoolBusy extends Error {
  constructor() {
    super('picture queue full');
    this.name = 'ChartPoolBusy';
  }
}

export interface ChartPoolOptions {
  /** Worker threads; default: one per spare core, 1 to 4. */
  readonly size?: number;
  /** Jobs that may wait for a free worker; more are refused. Default 32. */
  readonly maxQueue?: number;
}

interface Pending {
  readonly job: Job;
  resolve(png: Uint8Array): void;
  reject(err: Error): void;
}

export function createChartPool(o: ChartPoolOptions = {}): ChartPool {
  const size = Math.max(1, Math.floor(o.size ?? Math.min(4, Math.max(1, availableParallelism() - 1))));
  const maxQueue = Math.max(0, Math.floor(o.maxQueue ?? 32));
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  const queue: Pending[] = [];
  let spawned = 0;
  let nextId = 1;
  let refused = 0;
  let closed = false;

  const spawn = (): Worker => {
    const w = new Worker(new URL('./worker.ts', import.meta.url));
    spawned++;
    w.on('message', (reply: Reply) => {
      const p = busy.get(w);
      busy.delete(w);
      if ('error' in reply) p?.reject(new Error(reply.error));
      else p?.resolve(reply.png);
      // An idle worker must not keep the process alive.
      w.unref();
      idle.push(w);
      pump();
    });
    // A crashed worker exits next; 'exit' fails its job and a new one takes its place.
    w.on('error', () => {});
    w.on('exit', () => {
      spawned--;
      const i = idle.indexOf(w);
      if (i >= 0) idle.splice(i, 1);
      busy.get(w)?.reject(new Error('render worker exited'));
      busy.delete(w);
      pump();
    });
    return w;
  };

  function pump(): void {
    while (queue.length && !closed) {
      const w = idle.pop() ?? (spawned < size ? spawn() : undefined);
      if (!w) return;
      const p = queue.shift()!;
      busy.set(w, p);
      w.ref();
      w.postMessage(p.job);
    }
  }

  return {
    draw(kind, input) {
      if (closed) return Promise.reject(new Error('chart pool closed'));
      const free = idle.length + (size - spawned);
      if (free <= 0 && queue.length >= maxQueue) {
        refused++;
        return Promise.reject(new ChartPoolBusy());
      }
      return new Promise<Uint8Array>((resolve, reject) => {
        queue.push({ job: { id: nextId++, kind, input }, resolve, reject });
        pump();
      });
    },
    stats: () => ({ running: busy.size, queued: queue.length, refused }),
    async close() {
      closed = true;
      for (const p of queue.splice(0)) p.reject(new Error('chart pool closed'));
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };
}

let shared: ChartPool | undefined;

/** The process's pool, started on first use; its idle workers never hold the process open. */
export function sharedChartPool(): ChartPool {
  shared ??= createChartPool();
  return shared;
}
