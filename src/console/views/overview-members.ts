/**
 * The overview's members: how many there are now (every member the API lists but the erased),
 * by status, and the new ones per week, counted while /members is read a page at a time.
 */
import type { Member, MemberStatus } from '../../contract/admin';
import { MEMBER_STATUSES } from '../../contract/admin';
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

export function membersPanel(ctx: ConsoleContext, weeks: readonly number[], signal: AbortSignal): HTMLElement {
  const progress = new ReadProgress('members', signal);
  const body = h('div', { class: 'panel-body' });
  const panel = section('Members', progress.element, body);
  const byStatus = new Map<MemberStatus, number>(MEMBER_STATUSES.map((status) => [status, 0]));
  const joined = new WeeklyCounts(weeks);

  void (async () => {
    try {
      const outcome = await readAll<Member>(ctx.api, '/members', undefined, {
        signal: progress.signal,
        onPage(items, read) {
          for (const member of items) {
            byStatus.set(member.status, (byStatus.get(member.status) ?? 0) + 1);
            joined.add(Date.parse(member.createdAt));
          }
          progress.update(read);
        },
      });
      if (signal.aborted) return;
      progress.finish(outcome);
      const now = outcome.read - (byStatus.get('erased') ?? 0);
      replace(
        body,
        h('p', { class: 'figure' }, h('span', { class: 'figure-label' }, 'Members now'), ' ', h('strong', { 'data-figure': 'members-now' }, count(now))),
        h('p', { class: 'note' }, 'Every member the Admin API lists, whatever their status, except erased ones.'),
        dataTable({
          caption: 'Members by status',
          filename: 'members-by-status',
          rows: [...byStatus].filter(([, n]) => n > 0),
          columns: [
            { header: 'Status', cell: ([status]) => status },
            { header: 'Members', numeric: true, cell: ([, n]) => count(n), csv: ([, n]) => n },
          ],
        }),
        weeklyChart({
          title: 'New members per week',
          weeks,
          series: [{ name: 'New members', values: joined.values() }],
          width: chartWidth(panel),
          filename: 'new-members-per-week',
        }),
      );
    } catch (error) {
      if (!signal.aborted) progress.fail(ctx.failed(error, 'read.members'));
    }
  })();
  return panel;
}
