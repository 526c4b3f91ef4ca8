// "62% of 13": every rate in the /winrate and /kols tables carries the sample it rests on, per
// cell, and the widest such cells still fit each platform's table width in all eight languages,
// a row taking at most two lines on Telegram.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createKolClient } from '../../src/api/index.ts';
import type { Caller } from '../../src/core/command.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { loadCommands } from '../../src/core/registry.ts';
import { formats } from '../../src/i18n/format.ts';
import { LOCALES, translator } from '../../src/i18n/index.ts';
import { silentLogger } from '../../src/log.ts';
import { openStore } from '../../src/store/index.ts';
import { sharedChartPool } from '../../src/views/charts/pool.ts';
import { TABLE_WIDTH as DISCORD_WIDTH, toDiscordPayload } from '../../src/views/render/discord.ts';
import { TABLE_WIDTH as TELEGRAM_WIDTH, toTelegramHtml } from '../../src/views/render/telegram.ts';
import { displayWidth } from '../../src/views/text.ts';
import { kolTable, winRates } from '../api/fixtures.ts';
import { rawServer } from '../api/rawserver.ts';
import { asTable, caller } from './harness.ts';

/** The widest cells the table takes whole: 100% over 999 tokens, beside a 15-character handle. */
const SAMPLE = 999;
const HANDLE = 'abcdefghijklmno';

async function setup(t: TestContext) {
  const base = winRates().items[0]!;
  const rates = Array.from({ length: 10 }, (_, i) => ({
    ...base,
    x_user_id: 100 + i,
    num_tokens_counted_win_rate: SAMPLE - i,
    win_rate_after1h: '1',
    win_rate_after4h: '0.999',
    win_rate_after1d: '1',
    win_rate_after7d: '1',
    unified_performance_score: '100',
    x_user: { ...(base['x_user'] as object), id: 100 + i, username: `${HANDLE.slice(0, 13)}${i}_` },
  }));
  const kolBase = kolTable().items[0]!;
  const kols = Array.from({ length: 10 }, (_, i) => ({
    ...kolBase,
    id: 100 + i,
    kol: `${HANDLE.slice(0, 13)}${i}_`,
    total_token: SAMPLE - i,
    winrate: 1,
    score_v2: 100,
    sm_follower: 123_456,
    user_ranking: 1000 + i,
  }));
  const server = await rawServer(t, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/v2/x-users/win-rate') res.end(JSON.stringify({ items: rates, total: rates.length }));
    else res.end(JSON.stringify({ items: kols, total: kols.length, meta: { limit: 10, offset: 0 } }));
  });
  const api = createKolClient({ baseUrl: server.url, apiKey: 'k', cacheTtlMs: false });
  const store = await openStore('memory:');
  const dispatcher = createDispatcher({
    commands: await loadCommands(),
    api,
    store,
    log: silentLogger(),
    charts: sharedChartPool(),
  });
  t.after(async () => {
    await api.close();
    await store.close();
  });
  return dispatcher;
}

/** The table's lines as a chat shows them: inside Telegram's <pre> or Discord's code block. */
function telegramLines(html: string): string[] {
  const pre = /<pre>([\s\S]*?)<\/pre>/.exec(html)?.[1] ?? '';
  return pre
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .split('\n');
}
function discordLines(text: string): string[] {
  return (/```\n([\s\S]*?)\n```/.exec(text)?.[1] ?? '').split('\n');
}

/** The table's renderers print narrow and no-break spaces (ru "100 %") as plain ones. */
const spaces = (s: string): string => s.replace(/[\u00a0\u202f]/g, ' ');

/** Lines per row: a row starts where a line starts with the row's first cell. */
function linesPerRow(lines: readonly string[], starts: RegExp): number[] {
  const body = lines.slice(lines.findIndex((l) => /^-+/.test(l)) + 1);
  const counts: number[] = [];
  for (const l of body) {
    if (starts.test(l)) counts.push(1);
    else counts[counts.length - 1]! += 1;
  }
  return counts;
}

for (const [line, rowStart] of [
  ['/winrate sort:4h', /^@/],
  ['/kols sort:winrate', /^\s*#/],
] as const) {
  test(`${line}: every rate shows its sample, whole and within the table width, in every language`, async (t) => {
    const dispatcher = await setup(t);
    for (const locale of LOCALES) {
      const who: Caller = { ...caller, userId: `u-${locale}`, chatId: `c-${locale}`, locale };
      const view = asTable((await dispatcher.text(line, who))!);
      const tr = translator(locale);
      const f = formats(locale);
      const rateKeys = view.columns.filter((c) => /^\d+[mhd]$/.test(c.key) || c.key === 'win').map((c) => c.key);
      assert.ok(rateKeys.length > 0, `${locale}: rate columns`);
      const cells = view.rows.flatMap((r) => rateKeys.map((k) => r[k]!));
      // Every cell: the rate and the count it rests on, in the language's own form.
      const raw: Record<string, string> = { '4h': '0.999' };
      view.rows.forEach((r, i) => {
        for (const k of rateKeys) {
          const rate = f.pct(raw[k] ?? 1, 'fraction', { decimals: 0 });
          assert.equal(r[k], tr('columns.rateOf', { rate, n: f.int(SAMPLE - i) }));
        }
      });
      assert.equal(
        view.columns.some((c) => c.key === 'tokens'),
        false,
        'no separate count: each cell carries it',
      );
      const telegram = telegramLines(toTelegramHtml(view).text);
      const discord = discordLines(toDiscordPayload(view).embeds[0]!.description ?? '');
      for (const [name, lines, width] of [
        ['telegram', telegram, TELEGRAM_WIDTH],
        ['discord', discord, DISCORD_WIDTH],
      ] as const) {
        assert.ok(lines.length > view.rows.length, `${locale} ${name}: a table`);
        for (const l of lines)
          assert.ok(displayWidth(l) <= width, `${locale} ${name}: ${displayWidth(l)} > ${width}: ${l}`);
        const text = lines.join('\n');
        for (const c of cells) assert.ok(text.includes(spaces(c)), `${locale} ${name}: '${c}' shown whole`);
        const perRow = linesPerRow(lines, rowStart);
        assert.equal(perRow.length, view.rows.length, `${locale} ${name}: every row shown`);
        assert.ok(
          perRow.every((n) => n <= 2),
          `${locale} ${name}: a row takes ${Math.max(...perRow)} lines\n${text}`,
        );
      }
    }
  });
}
