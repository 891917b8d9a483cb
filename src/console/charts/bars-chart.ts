/**
 * Horizontal bars, one a named thing (a plan, a content item), each with its number: plain SVG as
 * the weekly chart is, its numbers in the table the caller shows beside it. The name sits above
 * its bar, so a long plan name fits a phone's width.
 */
import { s, uniqueId } from '../dom';
import { count } from '../format';
import { fittedChart } from './fitted-chart';

export interface Bar {
  label: string;
  value: number;
}

const ROW = 38;

/** The chart, drawn at `width` (where it goes) and again as that changes (./fitted-chart). */
export const barsChart = (title: string, bars: readonly Bar[], width: number): HTMLElement => fittedChart((w) => barsSvg(title, bars, w), width);

function barsSvg(title: string, bars: readonly Bar[], w: number): SVGSVGElement {
  const valueRoom = 64;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const height = Math.max(ROW, bars.length * ROW);
  const titleId = uniqueId('chart');
  return s(
    'svg',
    { viewBox: `0 0 ${w} ${height}`, width: w, height, role: 'img', 'aria-labelledby': titleId, class: 'chart' },
    s('title', { id: titleId }, `${title}; the numbers are in the table below`),
    bars.map((bar, index) => {
      const top = index * ROW;
      const length = ((w - valueRoom) * bar.value) / max;
      return s(
        'g',
        null,
        s('text', { class: 'axis', x: 0, y: top + 13 }, bar.label),
        s('rect', { class: 'bar series-0', x: 0, y: top + 18, width: Math.max(bar.value > 0 ? 2 : 0, length), height: 14 }),
        s('text', { class: 'value', x: length + 6, y: top + 30 }, count(bar.value)),
      );
    }),
  );
}
