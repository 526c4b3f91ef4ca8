/**
 * A list of strings as keyv stores it (`{"value":[...]}`), edited below keyv by
 * the backends' atomic list operation (RawStore.listEdit).
 */

/** The list after adding `add` (once each) and removing `drop`; null: empty. */
export function editList(
  value: string | undefined,
  add: readonly string[],
  drop: readonly string[] = [],
): string | null {
  const list = value === undefined ? [] : ((JSON.parse(value) as { value?: unknown }).value as string[] | undefined);
  const gone = new Set(drop);
  const out = (Array.isArray(list) ? list : []).filter((x) => !gone.has(x));
  const seen = new Set(out);
  for (const x of add) {
    if (seen.has(x) || gone.has(x)) continue;
    out.push(x);
    seen.add(x);
  }
  return out.length ? JSON.stringify({ value: out }) : null;
}
