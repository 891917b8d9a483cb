import type { InvoiceSummary, MembershipPrice } from '../../../contract/member';
import { date, money } from '../format';
import { forMember, render, type Screen } from '../screen';
import { el } from '../ui';
import { seePlans } from './menu-links';

/** The member's invoices, newest first, failed attempts included, each with its status as a badge. */
/** The invoices' table: drawn by this screen alone (Dialog._addStyle). */
const TABLE_STYLE = 'table{width:100%;border-collapse:collapse;font-size:.875rem}th,td{text-align:start;vertical-align:top;padding:.5rem .5rem .5rem 0;border-bottom:1px solid var(--d)}';

export const invoicesScreen: Screen = forMember(async (ctx, member) => {
  const { doc, t, config, host } = ctx;
  const invoices = await host.call<InvoiceSummary[]>('GET', '/invoices');
  // None yet during a trial: said why (its first invoice comes when it ends).
  const trial = !invoices.length && (await host.call<MembershipPrice[]>('GET', '/memberships').catch(() => [])).find((p) => p.trialEndsAt);
  const trialName = trial && member.memberships.find((m) => m.id === trial.id)?.name;
  // Three columns, what and when in one, so the table fits a 320 px screen.
  // A refunded payment was made, then given back: its badge is neither good nor bad news.
  const badges = { paid: ['ok', t.paid], failed: ['bad', t.failed], refunded: ['', t.refunded] } as const;
  const rows = invoices.map((i) =>
    el(doc, 'tr', {},
      el(doc, 'td', {}, el(doc, 'span', {}, i.status === 'failed' ? t.attempt(i.description) : i.description), el(doc, 'time', { datetime: i.createdAt }, date(i.createdAt, config.locale))),
      el(doc, 'td', {}, money(i.totalCents, i.currency, config.locale)),
      el(doc, 'td', {}, el(doc, 'span', { class: `badge ${badges[i.status][0]}` }, badges[i.status][1]))),
  );
  // Column headers, so a screen reader names each cell ("Amount: $12.00"), not only reads it.
  const head = el(doc, 'thead', {}, el(doc, 'tr', {}, ...t.invoiceColumns.map((name) => el(doc, 'th', { scope: 'col' }, name))));
  ctx.dialog._addStyle(TABLE_STYLE);
  render(ctx, t.invoices, ...(rows.length > 0 ? [el(doc, 'table', {}, head, el(doc, 'tbody', {}, ...rows))] : [el(doc, 'p', {}, t.noInvoices), trialName ? el(doc, 'p', { class: 'muted' }, t.firstInvoice(trialName, date(trial.trialEndsAt!, config.locale))) : null, seePlans(ctx, invoicesScreen)]));
});
