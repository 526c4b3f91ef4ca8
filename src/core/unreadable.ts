/**
 * Partial list answers: the client keeps the rows of a list that parse and
 * counts the others (`unreadable` on the result). A command's answer then says
 * so in one line, whatever command it is, so no list view has to remember to.
 */
import type { KolClient } from '../api/index.ts';
import { formats } from '../i18n/format.ts';
import { languageOf, translator, type T } from '../i18n/index.ts';
import type { View } from '../domain/view.ts';

/** The client, counting the unreadable rows of every answer it gives this command. */
export function countingUnreadable(api: KolClient): { api: KolClient; count(): number } {
  let n = 0;
  const wrapped = new Proxy(api, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || !prop.startsWith('get')) return value;
      return async (...args: unknown[]) => {
        const r: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        const u = r && typeof r === 'object' ? (r as { unreadable?: unknown }).unreadable : undefined;
        if (typeof u === 'number' && u > 0) n += u;
        return r;
      };
    },
  });
  return { api: wrapped, count: () => n };
}

/** "1 row could not be read", added under the answer. */
export function withUnreadableNote(view: View, n: number, t: T = translator('en')): View {
  if (n <= 0) return view;
  const line = t('errors.unreadable', { count: n, n: formats(languageOf(t)).int(n) });
  switch (view.kind) {
    case 'table':
      return { ...view, notes: [...(view.notes ?? []), line] };
    case 'card':
      return { ...view, footer: view.footer ? `${view.footer} · ${line}` : line };
    case 'text':
      return { ...view, text: typeof view.text === 'string' ? `${view.text}\n${line}` : [...view.text, '\n', line] };
    default:
      return view;
  }
}
