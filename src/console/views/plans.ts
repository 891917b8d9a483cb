/** Plans: every plan /plans lists (archived ones it leaves out), with the active member count the API gives each. */
import type { Plan } from '../../contract/admin';
import { barsChart } from '../charts/bars-chart';
import type { ConsoleContext } from '../context';
import { h, replace } from '../dom';
import { count, money } from '../format';
import { dataTable } from '../ui/data-table';
import { chartWidth } from './chart-width';

/** `$12.00 every month`, `$60.00 × 3, monthly`, `free`. */
export function priceText(plan: Plan): string {
  if (plan.type === 'free') return 'free';
  const price = money(plan.billing.price, plan.billing.currency);
  if (plan.type === 'oneTimePayment') return `${price} once`;
  const { count: n, unit } = plan.billing.interval;
  const every = n === 1 ? `every ${unit}` : `every ${n} ${unit}s`;
  return plan.type === 'multiPayment' ? `${price} ${every}, ${plan.billing.paymentCountRequired} payments` : `${price} ${every}`;
}

export function plansView(ctx: ConsoleContext, signal: AbortSignal): HTMLElement {
  const body = h('div', { class: 'panel-body' }, h('p', null, 'Reading plans…'));
  const view = h(
    'div',
    { class: 'view' },
    h('h1', { tabindex: -1 }, 'Plans'),
    h('p', { class: 'note' }, 'The plans the Admin API lists: enabled and disabled ones. Archived plans keep their members but are not listed; their memberships show on the overview.'),
    body,
  );
  ctx.plans.refresh();
  void (async () => {
    try {
      const plans = await ctx.plans.listedPlans(signal);
      if (signal.aborted) return;
      replace(
        body,
        plans.length > 0 && barsChart('Active members by plan', plans.map((plan) => ({ label: plan.name, value: plan.activeMemberCount })), chartWidth(body)),
        dataTable({
          caption: 'Plans and their active members',
          filename: 'plans',
          rows: plans,
          empty: 'No plans.',
          columns: [
            { header: 'Plan', cell: (p) => p.name },
            { header: 'Id', numeric: true, cell: (p) => p.id },
            { header: 'Public id', cell: (p) => p.publicId },
            { header: 'Type', cell: (p) => p.type },
            { header: 'Status', cell: (p) => p.status },
            { header: 'Public', cell: (p) => (p.isPublic ? 'yes' : 'no'), csv: (p) => p.isPublic },
            { header: 'Price', cell: (p) => priceText(p), csv: (p) => ('billing' in p ? p.billing.price : 0) },
            { header: 'Currency', cell: (p) => ('billing' in p ? p.billing.currency.toUpperCase() : '') },
            { header: 'Active members', numeric: true, cell: (p) => count(p.activeMemberCount), csv: (p) => p.activeMemberCount },
          ],
        }),
      );
    } catch (error) {
      if (!signal.aborted) replace(body, h('p', { class: 'error', role: 'alert' }, ctx.failed(error, 'read.plans')));
    }
  })();
  return view;
}
