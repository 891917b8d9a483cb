/**
 * A table of rows with a caption, in a box that scrolls sideways on a narrow screen (and can be
 * scrolled with the keyboard: it takes focus), and an "Export CSV" button that downloads what the
 * table shows, each column's raw value rather than its formatted text where they differ.
 */
import { type CsvValue, toCsv } from '../csv';
import { type Child, h, uniqueId } from '../dom';
import { downloadCsv } from '../download';

export interface Column<T> {
  header: string;
  cell(row: T): Child;
  /** The value in the CSV; the cell's text when absent. */
  csv?(row: T): CsvValue;
  numeric?: boolean;
}

export interface TableOptions<T> {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  /** The CSV file's name, without `.csv`. */
  filename: string;
  /** Said instead of an empty table. */
  empty?: string;
  /** Buttons beside "Export CSV". */
  actions?: Child;
}

function textOf(child: Child): string {
  if (child === null || child === undefined || child === false) return '';
  if (Array.isArray(child)) return child.map(textOf).join('');
  return child instanceof Node ? (child.textContent ?? '') : String(child);
}

export function csvOf<T>(columns: readonly Column<T>[], rows: readonly T[]): string {
  return toCsv(
    columns.map((c) => c.header),
    rows.map((row) => columns.map((c) => (c.csv ? c.csv(row) : textOf(c.cell(row))))),
  );
}

export function dataTable<T>(options: TableOptions<T>): HTMLElement {
  const captionId = uniqueId('caption');
  const exportCsv = () => downloadCsv(`${options.filename}.csv`, csvOf(options.columns, options.rows));
  const table = h(
    'table',
    null,
    h('caption', { id: captionId }, options.caption),
    h('thead', null, h('tr', null, options.columns.map((c) => h('th', { scope: 'col', class: c.numeric ? 'num' : null }, c.header)))),
    h(
      'tbody',
      null,
      options.rows.map((row) => h('tr', null, options.columns.map((c) => h('td', { class: c.numeric ? 'num' : null }, c.cell(row))))),
    ),
  );
  return h(
    'div',
    { class: 'table-block' },
    options.rows.length === 0 && options.empty
      ? h('p', { class: 'empty' }, options.empty)
      : h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': captionId }, table),
    h(
      'div',
      { class: 'table-actions' },
      options.actions,
      // Named with its table: a page has many of these buttons.
      options.rows.length > 0 && h('button', { type: 'button', onclick: exportCsv, 'aria-label': `Export CSV: ${options.caption}` }, 'Export CSV'),
    ),
  );
}
