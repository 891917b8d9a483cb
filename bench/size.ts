/**
 * Size of the widget as sites download it.
 *
 *   npm run bench:size        (npx tsx bench/size.ts)
 *
 * Builds dist/ first when it is missing or older than src/widget, then prints, for
 * dist/widgets.js (what site owners install), dist/widgets.mjs and each language's screens
 * (dist/widgets-modal.js in English, widgets-modal.de.js, …: one is loaded, in the site's
 * language, on first open; docs/decisions/0023-modal-catalogues.md): minified bytes as served,
 * gzip (zlib level 9) and brotli (quality 11) bytes; then the budget check of widgets.js, 8 KB
 * (8,192 bytes) gzipped, and of the whole widget (widgets.js plus the largest screens' bundle,
 * every screen and that language's words in it), 20 KB gzipped, each PASS or MISS. A printed
 * figure, not a test: exit 0 either way, exit 1 only when there is nothing to measure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ensureBuild } from '../scripts/lib/ensure-build';
import { distDir } from '../scripts/lib/paths';

const BUDGET_GZIP_BYTES = 8 * 1024;
/** The screens in each language: widgets-modal.js (English), widgets-modal.de.js, … */
const isModal = (name: string) => /^widgets-modal(\.[a-z]{2})?\.js$/.test(name);
/** The whole widget (runtime plus the screens, issue 5's target): under 20 KB gzipped. */
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

const rows = ['widgets.js', 'widgets.mjs', ...readdirSync(distDir).filter(isModal).sort()].map(measure);
const head = ['file', 'min', 'gzip -9', 'brotli'];
const cells = rows.map((r) => [r.file, bytes(r.min), bytes(r.gzip), bytes(r.brotli)]);
const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
const line = (c: string[]) => c.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
console.log([line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n'));

const installed = rows[0]!;
const share = Math.round((installed.gzip / BUDGET_GZIP_BYTES) * 100);
const verdict = installed.gzip <= BUDGET_GZIP_BYTES ? 'PASS' : 'MISS';
console.log(`\nbudget: ${installed.file} gzip ${bytes(installed.gzip)} of ${bytes(BUDGET_GZIP_BYTES)} (8 KB), ${share}%  ${verdict}`);
// What a page that opens a screen downloads: the runtime, then the screens in the site's language.
const largest = rows.slice(2).reduce((a, b) => (b.gzip > a.gzip ? b : a));
const total = installed.gzip + largest.gzip;
console.log(
  `whole widget: widgets.js + ${largest.file.slice(5)} (the largest screens' bundle) gzip ${bytes(total)} of ${bytes(TOTAL_BUDGET_GZIP_BYTES)} (20 KB), ` +
    `${Math.round((total / TOTAL_BUDGET_GZIP_BYTES) * 100)}%  ${total <= TOTAL_BUDGET_GZIP_BYTES ? 'PASS' : 'MISS'}`,
);
