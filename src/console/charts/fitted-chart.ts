/**
 * A chart that keeps to the width of where it is: drawn first at the width its panel has (the
 * caller measures it), then drawn again whenever its box gets narrower or wider (a window
 * resized, a phone turned), so its labels stay at their size and its bars fill the width,
 * rather than the whole picture being scaled down or left narrow. A chart's height never
 * depends on its width, so drawing again never changes the box it answers to.
 */
import { h } from '../dom';

/** The widths a chart is drawn at: at least a phone's, at most a line a reader can take in. */
export const fitChartWidth = (width: number): number => Math.round(Math.min(960, Math.max(280, width)));

/** Small changes (a scroll bar appearing) are not worth a new picture. */
const REDRAW_STEP = 16;

export function fittedChart(draw: (width: number) => SVGSVGElement, width: number): HTMLElement {
  let drawn = fitChartWidth(width);
  const box = h('div', { class: 'chart-box' }, draw(drawn));
  new ResizeObserver(([entry]) => {
    const now = entry ? entry.contentRect.width : 0;
    // Not laid out (a closed <details>, a view being left): keep the picture.
    if (now === 0) return;
    const next = fitChartWidth(now);
    if (Math.abs(next - drawn) < REDRAW_STEP) return;
    drawn = next;
    box.replaceChildren(draw(next));
  }).observe(box);
  return box;
}
