/** "2h", "30m", "1d", "1w" -> milliseconds; undefined for an invalid duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d{1,4})\s*(m|min|h|d|w)$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2]!.toLowerCase() as 'm'];
  const ms = Number(m[1]) * unit;
  return ms > 0 ? ms : undefined;
}
