/**
 * A bar chart of counts per week, one bar a series side by side: plain SVG drawn here (decision
 * 0040: no chart library). The picture is for the eye; its numbers are a table right below it,
 * in a <details>, for screen readers, the keyboard and the CSV export. Colours come from the
 * style sheet (`.series-0`, `.series-1`), so dark mode restyles the chart with the page.
 */
import { type Child, h, s, uniqueId } from '../dom';
import { count } from '../format';
import { isoDay } from '../metrics/weeks';
import { dataTable } from '../ui/data-table';
import { fittedChart } from './fitted-chart';
import { niceMax } from './scale';

export interface Series {
  name: string;
  values: readonly number[];
}

export interface WeeklyChartOptions {
  title: string;
  /** Each week's Monday (ms). */
  weeks: readonly number[];
  series: readonly Series[];
  /** The chart's width in CSS pixels (the width of where it goes), so its text stays at its size. */
  width: number;
  filename: string;
  /** A line under the title: how the numbers are counted. */
  note?: Child;
}

const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 26, left: 40 };

/** `Mar 2`, a week's Monday on the axis. */
const axisDay = (ms: number) => new Date(ms).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** The picture alone, `width` CSS pixels wide. */
function weeklySvg(options: WeeklyChartOptions, width: number): SVGSVGElement {
  const { weeks, series } = options;
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const top = niceMax(Math.max(0, ...series.flatMap((one) => one.values)));
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const slot = plotWidth / Math.max(1, weeks.length);
  const barWidth = Math.max(1, (slot * 0.8) / Math.max(1, series.length));
  // Every label that fits, about 44 px each.
  const labelEvery = Math.max(1, Math.ceil(weeks.length / Math.max(1, Math.floor(plotWidth / 44))));

  const grid = [0, top / 2, top].map((value) =>
    s(
      'g',
      { class: 'grid' },
      s('line', { x1: PAD.left, x2: width - PAD.right, y1: y(value), y2: y(value) }),
      s('text', { x: PAD.left - 6, y: y(value) + 4, 'text-anchor': 'end' }, count(value)),
    ),
  );
  const bars = series.flatMap((one, index) =>
    one.values.map((value, week) =>
      s('rect', {
        class: `bar series-${index}`,
        x: PAD.left + week * slot + slot * 0.1 + index * barWidth,
        y: y(value),
        width: barWidth,
        height: Math.max(0, PAD.top + plotHeight - y(value)),
      }),
    ),
  );
  const labels = weeks.map((week, index) =>
    index % labelEvery === 0
      ? s('text', { class: 'axis', x: PAD.left + index * slot + slot / 2, y: HEIGHT - 8, 'text-anchor': 'middle' }, axisDay(week))
      : null,
  );
  const titleId = uniqueId('chart');
  const totals = series.map((one) => `${one.name}: ${count(one.values.reduce((a, b) => a + b, 0))}`).join(', ');
  return s(
    'svg',
    { viewBox: `0 0 ${width} ${HEIGHT}`, width, height: HEIGHT, role: 'img', 'aria-labelledby': titleId, class: 'chart' },
    s('title', { id: titleId }, `${options.title}, ${weeks.length} weeks (${totals}); the numbers are in the table below`),
    grid,
    bars,
    labels,
  );
}

/** The chart in its figure: title, note, legend, the picture (drawn again as its width changes) and the numbers as a table. */
export function weeklyChart(options: WeeklyChartOptions): HTMLElement {
  const { weeks, series } = options;
  const legend =
    series.length > 1
      ? h('ul', { class: 'legend' }, series.map((one, index) => h('li', null, h('span', { class: `swatch series-${index}`, 'aria-hidden': 'true' }), one.name)))
      : null;
  const rows = weeks.map((week, index) => ({ week, values: series.map((one) => one.values[index] ?? 0) }));
  const table = dataTable({
    caption: `${options.title}, by week (Monday, UTC)`,
    filename: options.filename,
    rows,
    columns: [
      { header: 'Week of', cell: (row) => isoDay(row.week) },
      ...series.map((one, index) => ({ header: one.name, numeric: true, cell: (row: (typeof rows)[number]) => count(row.values[index]!), csv: (row: (typeof rows)[number]) => row.values[index]! })),
    ],
  });
  return h(
    'figure',
    { class: 'chart-figure' },
    h('figcaption', null, options.title),
    options.note && h('p', { class: 'note' }, options.note),
    legend,
    fittedChart((width) => weeklySvg(options, width), options.width),
    h('details', null, h('summary', null, 'The numbers'), table),
  );
}
