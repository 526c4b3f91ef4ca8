/**
 * The pictures service, a layer of its own between the views and what uses
 * them (alerts, commands): it holds what a view may not, a cache of recent
 * drawings (cache.ts), the pool of worker threads that draws, and a logger. The
 * views stay pure builders and make each chart's input from API results
 * (views/cards/pictureInputs.ts, calls.ts, memberCalls.ts, digest.ts); this
 * layer draws it. Not in alerts: commands draw most pictures and drawing is no
 * part of alerting; alert delivery (digests) uses it as the commands do.
 *
 * Here, one picture for an answer: drawn in the context's pool (which reuses
 * recent drawings), or skipped. Drawing is optional decoration: it is skipped
 * where the platform shows no pictures, and a failure only costs the picture,
 * never the answer.
 */
import type { CommandContext } from '../core/command.ts';
import type { ChartInputs, ChartKind } from '../domain/charts.ts';
import type { CardView, Picture, TableView, TextView } from '../domain/view.ts';
import { ENGLISH, type T } from '../views/cards/lang.ts';
import { ChartPoolBusy } from '../views/charts/pool.ts';

/** What drawing needs of a command's context (alert delivery passes the same shape). */
export type PictureCtx = Pick<CommandContext, 'capabilities' | 'log' | 'charts'> & { readonly t?: T };

export interface PictureSpec<K extends ChartKind> {
  readonly kind: K;
  readonly name: string;
  readonly alt: (input: ChartInputs[K]) => string;
  /** Undefined when there is nothing worth drawing. */
  readonly input: () => ChartInputs[K] | undefined;
}

/** A picture, or a line telling the user why there is none (when they would expect one). */
export interface Drawn {
  readonly picture?: Picture;
  readonly note?: string;
}

export const BUSY_NOTE = ENGLISH('chart.busy');

/** Draws one picture in the context's pool, or reuses it there. Never throws. */
export async function drawPicture<K extends ChartKind>(ctx: PictureCtx, spec: PictureSpec<K>): Promise<Drawn> {
  if (!ctx.capabilities.pictures) return {};
  try {
    const input = spec.input();
    if (input === undefined) return {};
    const png = await ctx.charts.draw(spec.kind, input);
    return { picture: { png, name: spec.name, alt: spec.alt(input) } };
  } catch (err) {
    const busy = err instanceof ChartPoolBusy;
    ctx.log.warn({ picture: spec.kind, err }, 'answer sent without its picture');
    return busy ? { note: (ctx.t ?? ENGLISH)('chart.busy') } : {};
  }
}

/** The view with its picture, or with the note saying why it has none. */
export function withPicture<V extends CardView | TableView | TextView>(view: V, drawn: Drawn): V {
  if (drawn.picture) return { ...view, picture: drawn.picture };
  if (!drawn.note) return view;
  if (view.kind === 'text') {
    const text = typeof view.text === 'string' ? [view.text] : view.text;
    return { ...view, text: [...text, `\n\n${drawn.note}`] };
  }
  return { ...view, footer: view.footer ? `${view.footer}\n${drawn.note}` : drawn.note };
}
