/** The overview's content: views per week and the most viewed items, from /contentLibrary/views over the weeks shown. */
import type { ContentView } from '../../contract/admin';
import { readAll } from '../api/long-read';
import { weeklyChart } from '../charts/weekly-chart';
import type { ConsoleContext } from '../context';
import { h, replace } from '../dom';
import { count } from '../format';
import { WeeklyCounts } from '../metrics/weeks';
import { dataTable } from '../ui/data-table';
import { ReadProgress } from '../ui/read-progress';
import { section } from '../ui/section';
import { chartWidth } from './chart-width';

const TOP = 10;

interface ItemViews {
  id: number;
  name: string;
  type: string;
  space: string;
  views: number;
}

export function contentPanel(ctx: ConsoleContext, weeks: readonly number[], signal: AbortSignal): HTMLElement {
  const progress = new ReadProgress('content views', signal);
  const body = h('div', { class: 'panel-body' });
  const panel = section('Content', progress.element, body);
  const perWeek = new WeeklyCounts(weeks);
  const items = new Map<number, ItemViews>();

  void (async () => {
    try {
      const outcome = await readAll<ContentView>(ctx.api, '/contentLibrary/views', { viewedAfter: new Date(weeks[0]!).toISOString() }, {
        signal: progress.signal,
        onPage(views, read) {
          for (const view of views) {
            perWeek.add(Date.parse(view.viewedAt));
            const item = items.get(view.node.id);
            if (item) item.views++;
            else items.set(view.node.id, { id: view.node.id, name: view.node.name, type: view.node.type, space: view.spaceNode.name, views: 1 });
          }
          progress.update(read);
        },
      });
      if (signal.aborted) return;
      progress.finish(outcome);
      const top = [...items.values()].sort((a, b) => b.views - a.views || a.id - b.id).slice(0, TOP);
      replace(
        body,
        weeklyChart({
          title: 'Content views per week',
          weeks,
          series: [{ name: 'Views', values: perWeek.values() }],
          width: chartWidth(panel),
          filename: 'content-views-per-week',
        }),
        dataTable({
          caption: `Most viewed items in ${weeks.length} weeks`,
          filename: 'most-viewed-items',
          rows: top,
          empty: 'No content was viewed in these weeks.',
          columns: [
            { header: 'Item', cell: (item) => item.name },
            { header: 'Type', cell: (item) => item.type },
            { header: 'Space', cell: (item) => item.space },
            { header: 'Views', numeric: true, cell: (item) => count(item.views), csv: (item) => item.views },
          ],
        }),
      );
    } catch (error) {
      if (!signal.aborted) progress.fail(ctx.failed(error, 'read.contentViews'));
    }
  })();
  return panel;
}
