/**
 * Size of the widget as sites download it.
 *
 *   npm run bench:size        (npx tsx bench/size.ts)
 *
 * Builds dist/ first when it is missing or older than src/widget, then prints, for
 * dist/widgets.js (what site owners install), dist/widgets.mjs and each file of each language's
 * screens (dist/widgets-modal.js in English, widgets-modal.de.js, …: one is loaded, in the site's
 * language, on first open, docs/decisions/0023-modal-catalogues.md; and their chunks, a group of
 * screens each, loaded when one of its screens is drawn, decision 0034): minified bytes as
 * served, gzip (zlib level 9) and brotli (quality 11) bytes, and the total of every file. Then,
 * for each language and group of screens, what a page downloads to draw one of them (widgets.js,
 * the modal's base, the group; each file compressed on its own, as each is a download of its
 * own); then the budget check of widgets.js, 8 KB (8,192 bytes) gzipped, and of the largest of
 * those downloads, 20 KB gzipped, each PASS or MISS. A printed figure, not a test: exit 0 either
 * way, exit 1 only when there is nothing to measure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ensureBuild } from '../scripts/lib/ensure-build';
import { modalDownloads } from '../scripts/lib/modal-chunks';
import { distDir } from '../scripts/lib/paths';

const BUDGET_GZIP_BYTES = 8 * 1024;
/** The screens in each language: widgets-modal.js (English), widgets-modal.de.js, … */
const isModal = (name: string) => /^widgets-modal(\.[a-z]{2})?\.js$/.test(name);
/** Their chunks: widgets-modal<suffix>-<group>-<hash>.js */
const isModalChunk = (name: string) => /^widgets-modal(\.[a-z]{2})?-[\w-]+\.js$/.test(name);
/** What a page downloads for any one screen (runtime, the modal's base, the screen's group): under 20 KB gzipped. */
const TOTAL_BUDGET_GZIP_BYTES = 20 * 1024;

const bytes = (n: number) => `${n.toLocaleString('en-US')} B`;

function measure(name: string) {
  const body = readFileSync(join(distDir, name));
  return {
    file: `dist/${name}`,
    min: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }).length,
  };
}

const outcome = await ensureBuild(['widget']);
if (outcome === 'no-widget' || outcome === 'failed') {
  console.error(outcome === 'failed' ? 'the widget build failed (see above)' : 'src/widget/index.ts does not exist yet');
  process.exit(1);
}

const modals = readdirSync(distDir).filter(isModal).sort();
const rows = ['widgets.js', 'widgets.mjs', ...readdirSync(distDir).filter((name) => isModal(name) || isModalChunk(name)).sort()].map(measure);
const sum = (list: typeof rows) => ({ file: 'every file above', min: 0, gzip: 0, brotli: 0, ...Object.fromEntries((['min', 'gzip', 'brotli'] as const).map((k) => [k, list.reduce((n, r) => n + r[k], 0)])) });
const head = ['file', 'min', 'gzip -9', 'brotli'];
const table = (list: typeof rows) => {
  const cells = list.map((r) => [r.file, bytes(r.min), bytes(r.gzip), bytes(r.brotli)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
};
console.log(table([...rows, sum(rows.filter((r) => r.file !== 'dist/widgets.mjs'))]));

const installed = rows[0]!;
const gzipOf = new Map(rows.map((r) => [r.file.slice('dist/'.length), r.gzip]));
const share = Math.round((installed.gzip / BUDGET_GZIP_BYTES) * 100);
const verdict = installed.gzip <= BUDGET_GZIP_BYTES ? 'PASS' : 'MISS';

// What a page that draws a screen downloads: the runtime, the base of the screens in the site's
// language, and the group the screen is in (none for the base's own: logging in, mailed codes).
const screens = modals.flatMap((entry) => {
  const { base, groups } = modalDownloads(distDir, entry);
  const of = (files: string[]) => files.reduce((n, f) => n + gzipOf.get(f)!, installed.gzip);
  return [
    { what: `${entry} (its own screens)`, gzip: of(base) },
    ...[...groups].map(([group, files]) => ({ what: `${entry} + ${files.join(' + ')}`, group, gzip: of([...base, ...files]) })),
  ];
});
console.log(`\nwhat a page downloads for one screen (widgets.js + the screens' files, gzip each):`);
for (const s of screens) console.log(`  ${bytes(s.gzip).padStart(9)}  widgets.js + ${s.what}`);

console.log(`\nbudget: ${installed.file} gzip ${bytes(installed.gzip)} of ${bytes(BUDGET_GZIP_BYTES)} (8 KB), ${share}%  ${verdict}`);
const largest = screens.reduce((a, b) => (b.gzip > a.gzip ? b : a));
console.log(
  `one screen: widgets.js + ${largest.what} (the largest) gzip ${bytes(largest.gzip)} of ${bytes(TOTAL_BUDGET_GZIP_BYTES)} (20 KB), ` +
    `${Math.round((largest.gzip / TOTAL_BUDGET_GZIP_BYTES) * 100)}%  ${largest.gzip <= TOTAL_BUDGET_GZIP_BYTES ? 'PASS' : 'MISS'}`,
);
