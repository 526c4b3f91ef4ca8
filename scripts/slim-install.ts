/**
 * Trims a production install (`npm ci --omit=dev`) to what the runtime reads:
 * - the font files the charts read: the Noto Sans SC and KR packages ship nine
 *   weights each (about 150 MB) and the charts use the regular one; DejaVu ships
 *   twenty faces and the charts use two. The list kept is the charts' own
 *   (src/views/charts/font.ts), so nothing they draw loses its glyphs;
 * - TypeScript (30 MB), which npm installs even with --omit=dev as an optional
 *   peer of i18next, for its type definitions: nothing imports it at run time.
 * The Dockerfile runs it; a bare install may too. Prints what it freed.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { FALLBACK_FILES, FONT_FILES } from '../src/views/charts/font.ts';

const keep = new Set([...FONT_FILES, ...FALLBACK_FILES]);
/** The packages the kept files come from: everything else in them that is a font or a preview goes. */
const packages = new Set([...keep].map((f) => packageRoot(f)));
const DROP = /\.(ttf|otf|woff2?|png)$/i;

function packageRoot(file: string): string {
  let dir = dirname(file);
  while (!readdirSync(dir).includes('package.json')) dir = dirname(dir);
  return dir;
}

function* files(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else yield p;
  }
}

let freed = 0;
let removed = 0;
const size = (dir: string): number => [...files(dir)].reduce((n, f) => n + statSync(f).size, 0);
for (const dir of ['node_modules/typescript', 'node_modules/@typescript'])
  if (existsSync(dir)) {
    freed += size(dir);
    rmSync(dir, { recursive: true });
    removed++;
  }
for (const root of packages)
  for (const f of files(root))
    if (DROP.test(f) && !keep.has(f)) {
      freed += statSync(f).size;
      rmSync(f);
      removed++;
    }
process.stdout.write(
  `kept ${keep.size} font files (${[...keep].map((f) => relative(process.cwd(), f)).join(', ')}); removed ${removed} files and folders, ${(freed / 1e6).toFixed(0)} MB\n`,
);
