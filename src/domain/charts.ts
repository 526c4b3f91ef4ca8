/**
 * The picture service as the core hands it to commands. The kinds of chart and
 * their inputs belong to the views: `views/charts/draw.ts` fills `ChartInputs`
 * by declaration merging, so the core types `ctx.charts` exactly without
 * importing a view, and the pool itself is made in `app.ts` and passed down.
 */

/** Chart kind -> its input; declared empty here, filled by views/charts/draw.ts. */
// biome-ignore lint/suspicious/noEmptyInterface: the views merge their chart kinds into it
export interface ChartInputs {}

export type ChartKind = keyof ChartInputs;

export interface ChartPool {
  /** Rejects at once (the views' ChartPoolBusy) when the queue is full. */
  draw<K extends ChartKind>(kind: K, input: ChartInputs[K]): Promise<Uint8Array>;
  /** Jobs drawing now and waiting, and those refused so far. */
  stats(): { readonly running: number; readonly queued: number; readonly refused: number };
  close(): Promise<void>;
}
