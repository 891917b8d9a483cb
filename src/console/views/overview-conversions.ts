/**
 * The overview's conversions: plan sign-ups (`conversion` events) and paid sign-ups whose first
 * charge was declined (`abandonedConversion`) per week, from /memberEvents over the weeks shown
 * (the API filters events by time, not by type: every event of those weeks is read and counted).
 */
import type { MemberEvent } from '../../contract/admin';
import { readAll } from '../api/long-read';
import { weeklyChart } from '../charts/weekly-chart';
import type { ConsoleContext } from '../context';
import { h, replace } from '../dom';
import { count } from '../format';
import { WeeklyCounts } from '../metrics/weeks';
import { ReadProgress } from '../ui/read-progress';
import { section } from '../ui/section';
import { chartWidth } from './chart-width';

export function conversionsPanel(ctx: ConsoleContext, weeks: readonly number[], signal: AbortSignal): HTMLElement {
  const progress = new ReadProgress('member events', signal);
  const body = h('div', { class: 'panel-body' });
  const panel = section('Conversions', progress.element, body);
  const conversions = new WeeklyCounts(weeks);
  const abandoned = new WeeklyCounts(weeks);

  void (async () => {
    try {
      const outcome = await readAll<MemberEvent>(ctx.api, '/memberEvents', { createdAfter: new Date(weeks[0]!).toISOString() }, {
        signal: progress.signal,
        onPage(items, read) {
          for (const event of items) {
            if (event.eventType === 'conversion') conversions.add(Date.parse(event.createdAt));
            else if (event.eventType === 'abandonedConversion') abandoned.add(Date.parse(event.createdAt));
          }
          progress.update(read);
        },
      });
      if (signal.aborted) return;
      progress.finish(outcome);
      const total = (counts: WeeklyCounts) => counts.values().reduce((a, b) => a + b, 0);
      replace(
        body,
        h(
          'p',
          { class: 'figure' },
          h('span', { class: 'figure-label' }, `Conversions in ${weeks.length} weeks`),
          ' ',
          h('strong', { 'data-figure': 'conversions' }, count(total(conversions))),
          h('span', { class: 'figure-label' }, ' · abandoned'),
          ' ',
          h('strong', { 'data-figure': 'abandoned-conversions' }, count(total(abandoned))),
        ),
        weeklyChart({
          title: 'Conversions and abandoned conversions per week',
          weeks,
          series: [
            { name: 'Conversions', values: conversions.values() },
            { name: 'Abandoned conversions', values: abandoned.values() },
          ],
          width: chartWidth(panel),
          filename: 'conversions-per-week',
          note: 'A conversion is a plan sign-up (free plans too); an abandoned conversion is a paid sign-up whose first charge was declined.',
        }),
      );
    } catch (error) {
      if (!signal.aborted) progress.fail(ctx.failed(error, 'read.memberEvents'));
    }
  })();
  return panel;
}
