/**
 * Which instances run on this store, and their roles: each rewrites its beat
 * every few seconds, and a beat expires, so the list is who is alive now. In
 * the `health` space (runtime state, never backed up or moved with the data).
 */
import type { Kv } from './strict.ts';

export interface InstanceBeat {
  readonly id: string;
  readonly roles: Readonly<Record<string, unknown>>;
  readonly startedAt: number;
  readonly at: number;
}

export interface InstanceBeats {
  /** An instance says it runs, and with which roles; forgotten `ttlMs` after its last beat. */
  beat(i: InstanceBeat, ttlMs: number): Promise<void>;
  /** Every instance that beat lately, oldest start first. */
  list(): Promise<InstanceBeat[]>;
}

export function createInstanceBeats(kv: Kv): InstanceBeats {
  return {
    beat: (i, ttlMs) => kv.set(`instance:${i.id}`, i, ttlMs),
    async list() {
      const out: InstanceBeat[] = [];
      for await (const [key, value] of kv.entries<InstanceBeat>())
        if (key.startsWith('instance:') && value) out.push(value);
      return out.sort((a, b) => a.startedAt - b.startedAt);
    },
  };
}
