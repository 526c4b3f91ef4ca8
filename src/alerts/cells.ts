/**
 * The parts of the subscription index (subindex.ts): a cell of entries as
 * parallel typed arrays, names numbered as bits, and counted values.
 */
/** Names numbered as bits (labels, tweet types); past 32 distinct names, undefined. Bits are never taken back. */
export class Bits {
  readonly #bits = new Map<string, number>();
  maskFor(names: readonly string[]): number | undefined {
    let m = 0;
    for (const name of names) {
      let b = this.#bits.get(name);
      if (b === undefined) {
        if (this.#bits.size >= 32) return undefined;
        b = 2 ** this.#bits.size;
        this.#bits.set(name, b);
      }
      m |= b;
    }
    return m >>> 0;
  }
  maskOf(names: readonly string[]): number {
    let m = 0;
    for (const name of names) m |= this.#bits.get(name) ?? 0;
    return m >>> 0;
  }
}

export const grown = <T extends Float64Array | Uint32Array | Int32Array | Uint8Array>(a: T, cap: number): T => {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
};

/** One cell's entries as parallel typed arrays; `slot` points at the subscription. */
export class Cell {
  n = 0;
  minToken = new Float64Array(4);
  minKol = new Float64Array(4);
  minFollowers = new Float64Array(4);
  /** Epoch ms of the subscription's start position; -Infinity when it has none. */
  startMs = new Float64Array(4);
  /** Paused until (epoch ms); 0 when not paused. */
  pausedUntil = new Float64Array(4);
  /** 0: any label / type; else the bits of the accepted ones. */
  labelMask = new Uint32Array(4);
  typeMask = new Uint32Array(4);
  flags = new Uint8Array(4);
  slot = new Int32Array(4);
  /** The subscriptions themselves, beside their numbers: the hot loop reads them in order, not scattered. */
  readonly subs: unknown[] = [];

  push(): number {
    if (this.n === this.slot.length) {
      const cap = this.n * 2;
      this.minToken = grown(this.minToken, cap);
      this.minKol = grown(this.minKol, cap);
      this.minFollowers = grown(this.minFollowers, cap);
      this.startMs = grown(this.startMs, cap);
      this.pausedUntil = grown(this.pausedUntil, cap);
      this.labelMask = grown(this.labelMask, cap);
      this.typeMask = grown(this.typeMask, cap);
      this.flags = grown(this.flags, cap);
      this.slot = grown(this.slot, cap);
    }
    return this.n++;
  }

  /** Moves the last entry into `at`; answers the slot that moved (or -1). */
  removeAt(at: number): number {
    const last = --this.n;
    if (at === last) {
      this.subs.length = last;
      return -1;
    }
    this.minToken[at] = this.minToken[last]!;
    this.minKol[at] = this.minKol[last]!;
    this.minFollowers[at] = this.minFollowers[last]!;
    this.startMs[at] = this.startMs[last]!;
    this.pausedUntil[at] = this.pausedUntil[last]!;
    this.labelMask[at] = this.labelMask[last]!;
    this.typeMask[at] = this.typeMask[last]!;
    this.flags[at] = this.flags[last]!;
    this.slot[at] = this.slot[last]!;
    this.subs[at] = this.subs[last];
    this.subs.length = last;
    return this.slot[at]!;
  }
}

/** A multiset of values: the loosest filter is its least member, or whether it holds a key. */
export class Counts<K> {
  readonly #n = new Map<K, number>();
  add(k: K, by: 1 | -1): void {
    const n = (this.#n.get(k) ?? 0) + by;
    if (n > 0) this.#n.set(k, n);
    else this.#n.delete(k);
  }
  has(k: K): boolean {
    return this.#n.has(k);
  }
  keys(): K[] {
    return [...this.#n.keys()];
  }
}
