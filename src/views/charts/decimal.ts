/**
 * Prices arrive as decimal strings that can be far below a cent
 * ("0.000000012345") or carry more digits than a double holds. A ratio is
 * formed from the significant digits and a separate power of ten, so tiny or
 * huge magnitudes never underflow to 0 or overflow before dividing.
 */

interface Decimal {
  /** Up to 17 significant digits as an integer-valued number. */
  readonly mantissa: number;
  /** value = mantissa * 10^exponent */
  readonly exponent: number;
}

const DECIMAL = /^\s*\+?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/** Parses a non-negative decimal string; null for junk, negatives or an empty number. */
function parseDecimal(text: string): Decimal | null {
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const int = m[1] ?? '';
  const frac = m[2] ?? '';
  if (int === '' && frac === '') return null;
  const exp = m[3] === undefined ? 0 : Number(m[3]);
  if (!Number.isSafeInteger(exp)) return null;
  const all = (int + frac).replace(/^0+/, '');
  if (all === '') return { mantissa: 0, exponent: 0 };
  const digits = all.slice(0, 17);
  return { mantissa: Number(digits), exponent: exp - frac.length + (all.length - digits.length) };
}

/** a / b for decimal strings, or null when either is unreadable or b is zero. */
export function decimalRatio(a: string, b: string): number | null {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y || y.mantissa === 0) return null;
  if (x.mantissa === 0) return 0;
  const r = (x.mantissa / y.mantissa) * 10 ** (x.exponent - y.exponent);
  return Number.isFinite(r) ? r : null;
}
