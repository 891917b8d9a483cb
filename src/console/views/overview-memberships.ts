/**
 * The overview's memberships and money: active memberships by plan, free against paid (and the
 * comped ones apart), and the monthly recurring revenue per currency (metrics/mrr.ts), counted
 * while /memberships?status=active is read; the plans (names, prices) come from /plans.
 */
import type { Membership, Plan, Site, SiteMetrics } from '../../contract/admin';
import { readAll } from '../api/long-read';
import { barsChart } from '../charts/bars-chart';
import type { ConsoleContext } from '../context';
import { h, replace } from '../dom';
import { count, money } from '../format';
import { mrrByCurrency } from '../metrics/mrr';
import { type PlanCounts, PlanTally } from '../metrics/plan-tally';
import { dataTable } from '../ui/data-table';
import { ReadProgress } from '../ui/read-progress';
import { missingScopes, section } from '../ui/section';
import { chartWidth } from './chart-width';

/** Shown on the page under the MRR, as the brief of issue 32 and docs/console.md state it. */
export const MRR_RULE =
  'Monthly recurring revenue: for each active membership of a subscription plan, what it pays normalised to a month from its interval ' +
  '(a day × 30.4375 ÷ count, a week × 4.348 ÷ count, a month ÷ count, a year ÷ 12 ÷ count); for an instalment plan with instalments left, ' +
  'the instalment normalised the same way. A membership pays the price it joined at when its plan’s has changed since (renewals charge that one), ' +
  'else its plan’s current price; tax not included; a trial counts at that price. Comped memberships and cancelled or expired ones are left out.';

export function membershipsPanel(ctx: ConsoleContext, signal: AbortSignal): HTMLElement {
  const body = h('div', { class: 'panel-body' });
  const panel = section('Memberships and revenue', body);
  const canPlans = ctx.capabilities.has('read.plans');

  void (async () => {
    let plans: Plan[] = [];
    try {
      if (canPlans) plans = await ctx.plans.listedPlans(signal);
    } catch (error) {
      if (signal.aborted) return;
      body.before(h('p', { class: 'error', role: 'alert' }, ctx.failed(error, 'read.plans')));
    }
    // Each plan counts its active members: together about the active memberships (archived plans aside).
    const estimate = plans.reduce((sum, plan) => sum + plan.activeMemberCount, 0) || undefined;
    const progress = new ReadProgress('active memberships', signal, estimate);
    body.before(progress.element);
    const tally = new PlanTally();
    try {
      const outcome = await readAll<Membership>(ctx.api, '/memberships', { status: 'active' }, {
        signal: progress.signal,
        onPage(items, read) {
          tally.add(items);
          progress.update(read);
        },
      });
      if (signal.aborted) return;
      const known = canPlans ? await ctx.plans.plans(tally.byPlan.keys(), signal).catch(() => new Map<number, Plan>()) : new Map<number, Plan>();
      // The site's counts as of now, not as of the sign-in.
      const metrics = (await ctx.api.get<Site[]>('/sites', signal))[0]?.metrics ?? ctx.site.metrics;
      progress.finish(outcome);
      replace(body, ...render(ctx, tally, known, metrics, chartWidth(panel)));
    } catch (error) {
      if (!signal.aborted) progress.fail(ctx.failed(error, 'read.memberships'));
    }
  })();
  return panel;
}

function render(ctx: ConsoleContext, tally: PlanTally, plans: Map<number, Plan>, metrics: SiteMetrics, width: number) {
  const totals = tally.totals();
  const name = (planId: number) => plans.get(planId)?.name ?? `Plan ${planId}`;
  const rows = [...tally.byPlan].sort(([, a], [, b]) => b.active - a.active);
  const mrr = mrrByCurrency(tally, plans);
  const byPlan = dataTable<[number, PlanCounts]>({
    caption: 'Active memberships by plan',
    filename: 'active-memberships-by-plan',
    rows,
    empty: 'No active memberships.',
    columns: [
      { header: 'Plan', cell: ([id]) => name(id) },
      { header: 'Plan id', numeric: true, cell: ([id]) => id },
      { header: 'Type', cell: ([id]) => plans.get(id)?.type ?? '' },
      { header: 'Active', numeric: true, cell: ([, c]) => count(c.active), csv: ([, c]) => c.active },
      { header: 'Paid', numeric: true, cell: ([, c]) => count(c.paid), csv: ([, c]) => c.paid },
      { header: 'Comped', numeric: true, cell: ([, c]) => count(c.comped), csv: ([, c]) => c.comped },
      { header: 'Free', numeric: true, cell: ([, c]) => count(c.free), csv: ([, c]) => c.free },
    ],
  });
  const split = dataTable({
    caption: 'Active memberships: free against paid',
    filename: 'free-against-paid',
    rows: [
      ['Free plans', totals.free],
      ['Paid plans, paying', totals.paid],
      ['Paid plans, comped (given for free)', totals.comped],
      ['All active memberships', totals.active],
    ] as const,
    columns: [
      { header: 'Memberships', cell: ([what]) => what },
      { header: 'Count', numeric: true, cell: ([, n]) => count(n), csv: ([, n]) => n },
    ],
  });
  const mrrTable = dataTable({
    caption: 'Monthly recurring revenue per currency',
    filename: 'monthly-recurring-revenue',
    rows: mrr.lines,
    empty: 'No recurring revenue: no active subscription or unfinished instalment plan that is paid for.',
    columns: [
      { header: 'Currency', cell: (line) => line.currency.toUpperCase() },
      { header: 'MRR', numeric: true, cell: (line) => money(line.amount, line.currency), csv: (line) => Math.round(line.amount * 100) / 100 },
      { header: 'Subscriptions', numeric: true, cell: (line) => count(line.subscriptions), csv: (line) => line.subscriptions },
      { header: 'Instalment plans', numeric: true, cell: (line) => count(line.instalmentPlans), csv: (line) => line.instalmentPlans },
    ],
  });
  return [
    h('p', { class: 'figure' }, h('span', { class: 'figure-label' }, 'Active memberships'), ' ', h('strong', { 'data-figure': 'active-memberships' }, count(totals.active))),
    h(
      'p',
      { class: 'note' },
      `Members with an active membership, as the API’s /sites counts them: ${count(metrics.activeMemberCount)} ` +
        `(${count(metrics.freeMemberCount)} on a free plan, ${count(metrics.paidMemberCount)} on a paid one; a member may be on both).`,
    ),
    rows.length > 0 && barsChart('Active memberships by plan', rows.map(([id, c]) => ({ label: name(id), value: c.active })), width),
    byPlan,
    split,
    h('h3', null, 'Monthly recurring revenue'),
    missingScopes(ctx.capabilities.has('read.plans') ? [] : ['read.plans']),
    ctx.capabilities.has('read.plans') && mrrTable,
    mrr.unpriced.length > 0 && h('p', { class: 'note' }, `Left out, their plans could not be read: plans ${mrr.unpriced.join(', ')}.`),
    h('p', { class: 'note mrr-rule' }, MRR_RULE),
  ];
}
