/**
 * Who runs the watcher. Several instances may serve commands, but exactly one
 * may move the high-water mark and fan out at a time. `fenced` runs a write
 * only while this instance still holds the lease it had when the tick began.
 */
export interface Lease {
  /** Takes or renews the lease; false when another instance holds it. */
  acquire(): Promise<boolean>;
  /** Runs `write` only if the lease is still ours; throws LeaseLostError otherwise. */
  fenced<T>(write: () => Promise<T>): Promise<T>;
  release(): Promise<void>;
  /** For /readyz: 'leader', 'follower' or 'unknown'. */
  status(): 'leader' | 'follower' | 'unknown';
}

export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/** One process owns its embedded SQLite file: it is always the leader. */
export function localLease(): Lease {
  let held = false;
  return {
    async acquire() {
      held = true;
      return true;
    },
    async fenced(write) {
      if (!held) throw new LeaseLostError('lease not held');
      return write();
    },
    async release() {
      held = false;
    },
    status: () => (held ? 'leader' : 'unknown'),
  };
}
