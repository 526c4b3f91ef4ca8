/** Number formatting for labels drawn inside charts. */

/** Rounds a coordinate for SVG output: one decimal is below a pixel and keeps strings short. */
export function px(n: number): string {
  const r = Math.round(n * 10) / 10;
  return Object.is(r, -0) ? '0' : String(r);
}

/** A signed percent with a precision that suits its size: +0.42%, -12.3%, +250%, +12.4K%. */
export function signedPercent(p: number): string {
  const sign = p > 0 ? '+' : p < 0 ? '-' : '';
  const a = Math.abs(p);
  let body: string;
  if (a >= 1_000_000) body = `${trim((a / 1_000_000).toFixed(a >= 10_000_000 ? 0 : 1))}M`;
  else if (a >= 10_000) body = `${trim((a / 1000).toFixed(a >= 100_000 ? 0 : 1))}K`;
  else if (a >= 100) body = a.toFixed(0);
  // -99.99% must not read as -100.0% (a total loss): keep two decimals near the boundary.
  else if (a >= 10) body = a.toFixed(1) === '100.0' ? (Math.floor(a * 100) / 100).toFixed(2) : a.toFixed(1);
  else body = a.toFixed(2);
  return `${sign}${body}%`;
}

/** A plain percent for rates in 0..100: 57.3%, 100%, 0%. */
export function percent(p: number): string {
  const tenth = Math.round(p * 10) / 10;
  return `${Number.isInteger(tenth) ? tenth.toFixed(0) : tenth.toFixed(1)}%`;
}

function trim(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** A finite number from a number-ish input, else null (NaN, Infinity, junk strings). */
export function finite(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}
