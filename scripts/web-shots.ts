/**
 * The community page's screenshots for the docs (`npm run screenshots` calls
 * this last): the board and a call page, on a phone (390 px) and a desktop
 * (1280 px), served by the real web server from the screenshot store and drawn
 * by Chromium (test/helpers/browser.ts: the system's binary, no download).
 * Without Chromium they are left as they are, with a line saying so.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KolClient } from '../src/api/index.ts';
import type { Registry } from '../src/core/registry.ts';
import type { ChartPool } from '../src/domain/charts.ts';
import { silentLogger } from '../src/log.ts';
import type { SandboxToken } from '../src/sandbox/types.ts';
import type { Store } from '../src/store/index.ts';
import { memberCall } from '../src/store/membercalls.ts';
import { startWebServer } from '../src/web/server.ts';
import { BROWSER_SKIP, browserAvailable, launchBrowser, openPage } from '../test/helpers/browser.ts';

const HOUR = 3_600_000;
/** Each member's calls as the peak and the latest of their follow-ups, times the call's market cap. */
const MEMBERS: readonly [name: string, moves: readonly (readonly [peak: number, now: number])[]][] = [
  [
    'alice',
    [
      [3.4, 2.9],
      [1.3, 0.8],
      [2.2, 2.1],
      [1.1, 0.6],
    ],
  ],
  [
    'bob',
    [
      [1.6, 1.2],
      [2.6, 1.9],
      [1.05, 0.5],
    ],
  ],
  [
    'carol',
    [
      [1.2, 1.1],
      [1.02, 0.4],
      [5.1, 4.4],
    ],
  ],
  [
    'dave',
    [
      [1.1, 0.7],
      [1.4, 1.3],
      [1.08, 0.9],
    ],
  ],
];

export interface ShotDeps {
  readonly store: Store;
  readonly api: KolClient;
  readonly commands: Registry;
  readonly charts: ChartPool;
  readonly now: number;
  /** Tokens to call, plainly named (their symbols show on the board). */
  readonly tokens: readonly SandboxToken[];
  /** The chat the other screenshots filled: its alerts are the page's KOL calls. */
  readonly chatId: string;
}

export async function webShots(d: ShotDeps, outDir: string): Promise<void> {
  if (!browserAvailable()) {
    process.stdout.write(`${BROWSER_SKIP}: docs/images/web-*.png left as they are\n`);
    return;
  }
  const board = `console:${d.chatId}`;
  await d.store.members.setOn(board, true);
  let n = 0;
  let best = '';
  let bestPeak = 0;
  for (const [m, [name, moves]] of MEMBERS.entries())
    for (const [i, [peak, last]] of moves.entries()) {
      const tok = d.tokens[n++ % d.tokens.length]!;
      const at = d.now - (40 - m * 8 - i * 2) * HOUR;
      const made = await d.store.members.call(
        memberCall({
          board,
          platform: 'console',
          chatId: d.chatId,
          messageId: `w${n}`,
          member: { id: name, name: `@${name}`, handle: name },
          token: { chain: tok.chain_id, address: tok.address, symbol: tok.symbol, name: tok.name },
          marketCap: tok.marketcap,
          liquidity: null,
          at,
          points: [5, 60, 240],
          nonce: `w${n}`,
        }),
      );
      if (made.kind !== 'recorded') continue; // a token this chat called already: the first caller keeps it
      // Three follow-ups: up to the peak, then to the latest.
      const caps = [(1 + peak) / 2, peak, last].map((x) => tok.marketcap * x);
      await d.store.calls.save([
        {
          ...made.call,
          next: 3,
          samples: caps.map((marketCap, j) => ({
            at: at + [5 / 60, 1, 4][j]! * HOUR,
            marketCap,
            point: [5, 60, 240][j]!,
          })),
          peak: Math.max(tok.marketcap, ...caps),
        },
      ]);
      if (peak > bestPeak) [best, bestPeak] = [made.call.id, peak];
    }
  await d.store.web.open('console', d.chatId, 'alpha-club', d.now);
  const server = await startWebServer({
    store: d.store,
    api: d.api,
    commands: d.commands,
    log: silentLogger(),
    charts: d.charts,
    now: () => d.now,
    host: '127.0.0.1',
    port: 0,
  });
  const browser = await launchBrowser();
  try {
    const pages: [file: string, path: string][] = [
      ['web-board', '/c/alpha-club'],
      ['web-call', `/c/alpha-club/call/${encodeURIComponent(best)}`],
    ];
    for (const [file, path] of pages)
      for (const [device, width] of [
        ['phone', 390],
        ['desktop', 1280],
      ] as const) {
        const page = await openPage(browser, { width, height: width === 390 ? 844 : 800 });
        const res = await page.goto(`${server.url}${path}`);
        if (res?.status() !== 200) throw new Error(`${path}: ${res?.status()}`);
        const png = await page.screenshot({ fullPage: true });
        const out = join(outDir, `${file}-${device}.png`);
        await writeFile(out, png);
        process.stdout.write(`${out}  ${(png.byteLength / 1024).toFixed(0)} KB  ${path} at ${width} px\n`);
        await page.context().close();
      }
  } finally {
    await browser.close();
    await server.close();
  }
}
