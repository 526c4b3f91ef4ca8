// The table of a KOL's shills (the KOL card's Tokens button): a window no shill has reached yet
// would be "…" in every row; it is left out, on every platform (the renderers draw the neutral table).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reachedWindows } from '../../src/views/cards/momentumTable.ts';
import { shownWindows } from '../../src/views/cards/windows.ts';
import { toTelegramHtml } from '../../src/views/render/telegram.ts';
import { toDiscordPayload } from '../../src/views/render/discord.ts';
import { toPlainText } from '../../src/views/render/plain.ts';
import type { TableView } from '../../src/domain/view.ts';

const now = Date.UTC(2026, 10, 25, 12);
const ago = (h: number) => ({ shill_timestamp: new Date(now - h * 3_600_000).toISOString() });

test('a window no shill has reached is left out; one reached by any row stays', () => {
  const labels = (items: { shill_timestamp: string }[]) =>
    reachedWindows(shownWindows(undefined), items, now).map((w) => w.label);
  const all = shownWindows(undefined).map((w) => w.label);
  assert.ok(all.includes('7d') && all.includes('24h'));
  // Shilled 2 h and 30 h ago: 24h is reached by one row, 7d by none.
  const recent = labels([ago(2), ago(30)]);
  assert.ok(recent.includes('24h'));
  assert.ok(!recent.includes('7d'));
  assert.deepEqual(labels([ago(2), ago(8 * 24)]), all);
  assert.deepEqual(labels([]), all, 'no rows: the columns say what the table would show');
  assert.deepEqual(labels([{ shill_timestamp: 'not a time' }]), all);
});

test('the dropped window is in no platform’s table', () => {
  const windows = reachedWindows(shownWindows(undefined), [ago(2), ago(30)], now);
  const view: TableView = {
    kind: 'table',
    title: 'Tokens shilled by @cryptoking',
    columns: [{ key: 'token', label: 'Token' }, ...windows.map((w) => ({ key: w.label, label: w.label }))],
    rows: [{ token: '$PEPE', ...Object.fromEntries(windows.map((w) => [w.label, '+1%'])) }],
  };
  assert.doesNotMatch(toTelegramHtml(view).text, /7d/);
  assert.doesNotMatch(JSON.stringify(toDiscordPayload(view).embeds), /7d/);
  assert.doesNotMatch(toPlainText(view).text, /7d/);
  assert.match(toPlainText(view).text, /24h/);
});
