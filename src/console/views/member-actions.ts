/**
 * The owner's actions on a member (issue 32), each asked for in a confirmation dialog and sent to
 * the Admin API; each resolves with the API's answer, or undefined when the owner cancelled. A
 * failure is thrown as it came (ApiFailure), for the member page to show.
 */
import type { Member, Membership, Plan } from '../../contract/admin';
import type { Invoice } from '../../contract/webhooks';
import type { ConsoleContext } from '../context';
import { h } from '../dom';
import { download } from '../download';
import { day, minor } from '../format';
import { fromMinor, toMinor } from '../../service/billing/money';
import { confirmDialog } from '../ui/confirm-dialog';
import { memberName } from './members';

const remainingCents = (invoice: Invoice) => invoice.totalCents - (invoice.refundedCents ?? 0);
export const canRefund = (invoice: Invoice): boolean => invoice.status === 'paid' && remainingCents(invoice) > 0;

const radio = (name: string, value: string, label: string, checked: boolean) => {
  const id = `${name}-${value}`;
  return h('div', { class: 'choice' }, h('input', { type: 'radio', name, value, id, checked, required: true }), h('label', { for: id }, label));
};

export async function cancelMembership(ctx: ConsoleContext, membership: Membership, planName: string): Promise<Membership | undefined> {
  const atPeriodEnd = membership.billing?.billingPeriodEnd;
  const form = await confirmDialog({
    title: `Cancel ${planName}?`,
    body: h('p', null, `Membership ${membership.id} on ${planName}. Nothing is refunded by cancelling: refund an invoice for that.`),
    fields: h(
      'fieldset',
      null,
      h('legend', null, 'When'),
      atPeriodEnd && radio('when', 'periodEnd', `At the end of the period it is paid for (${day(atPeriodEnd)})`, true),
      radio('when', 'now', 'Now: access ends at once', !atPeriodEnd),
    ),
    confirm: 'Cancel membership',
    danger: true,
  });
  if (!form) return undefined;
  return ctx.api.post<Membership>(`/memberships/${membership.id}/cancel`, { when: form.get('when') });
}

export async function compPlan(ctx: ConsoleContext, member: Member, plans: readonly Plan[]): Promise<Membership | undefined> {
  const form = await confirmDialog({
    title: `Give ${memberName(member)} a plan for free`,
    body: h('p', null, 'A comped membership is never charged and counts as no revenue.'),
    fields: [
      h('label', { for: 'comp-plan' }, 'Plan'),
      h('select', { id: 'comp-plan', name: 'planId', required: true }, plans.map((plan) => h('option', { value: plan.id }, `${plan.name} (${plan.type})`))),
      h('label', { for: 'comp-expires' }, 'Ends on (optional, UTC)'),
      h('input', { id: 'comp-expires', name: 'expiresAt', type: 'date', min: new Date().toISOString().slice(0, 10) }),
      h('p', { class: 'hint' }, 'Empty: as the plan’s own expiry says (never, for most plans).'),
    ],
    confirm: 'Give plan',
  });
  if (!form) return undefined;
  const expires = String(form.get('expiresAt') ?? '');
  return ctx.api.post<Membership>('/memberships', {
    memberId: member.id,
    planId: Number(form.get('planId')),
    ...(expires && { expiresAt: `${expires}T00:00:00Z` }),
  });
}

export async function refundInvoice(ctx: ConsoleContext, invoice: Invoice): Promise<Invoice | undefined> {
  const remaining = remainingCents(invoice);
  const step = 1 / (toMinor(1, invoice.currency) || 1);
  const form = await confirmDialog({
    title: `Refund invoice ${invoice.id}?`,
    body: h('p', null, `${invoice.description}: ${minor(invoice.totalCents, invoice.currency)} paid, ${minor(remaining, invoice.currency)} left to refund. The money goes back through the site’s payment processor.`),
    fields: [
      h('label', { for: 'refund-amount' }, `Amount (${invoice.currency.toUpperCase()}, optional)`),
      h('input', { id: 'refund-amount', name: 'amount', type: 'number', inputmode: 'decimal', min: step, max: fromMinor(remaining, invoice.currency), step }),
      h('p', { class: 'hint' }, `Empty: the whole ${minor(remaining, invoice.currency)} left.`),
    ],
    confirm: 'Refund',
    danger: true,
  });
  if (!form) return undefined;
  const amount = String(form.get('amount') ?? '').trim();
  // On what this page showed: refunded meanwhile (another tab, another owner), the API refuses in words and refunds nothing.
  const seen = { expectedRefundedCents: invoice.refundedCents ?? 0 };
  return ctx.api.post<Invoice>(`/invoices/${invoice.id}/refund`, amount ? { amountCents: toMinor(Number(amount), invoice.currency), ...seen } : seen);
}

export async function blockMember(ctx: ConsoleContext, member: Member, block: boolean): Promise<Member | undefined> {
  const form = await confirmDialog({
    title: `${block ? 'Block' : 'Unblock'} ${memberName(member)}?`,
    body: h(
      'p',
      null,
      block
        ? 'A blocked member is signed out everywhere and cannot sign in until unblocked. Memberships and billing are not changed.'
        : 'The member can sign in again.',
    ),
    confirm: block ? 'Block member' : 'Unblock member',
    danger: block,
  });
  if (!form) return undefined;
  return ctx.api.post<Member>(`/members/${member.id}/${block ? 'block' : 'unblock'}`, {});
}

/** Downloads everything stored about the member, as the API's JSON. */
export async function exportMember(ctx: ConsoleContext, member: Member): Promise<boolean> {
  const form = await confirmDialog({
    title: `Export ${memberName(member)}’s data?`,
    body: h('p', null, 'Downloads everything stored about the member as a JSON file (for a data access request). The export is recorded as a member event.'),
    confirm: 'Export data',
  });
  if (!form) return false;
  const data = await ctx.api.get<unknown>(`/members/${member.id}/export`);
  download(`member-${member.id}.json`, `${JSON.stringify(data, null, 2)}\n`, 'application/json');
  return true;
}

export async function eraseMember(ctx: ConsoleContext, member: Member): Promise<Member | undefined> {
  const form = await confirmDialog({
    title: `Erase ${memberName(member)}?`,
    body: [
      h('p', null, 'Removes the member’s personal data for good: the member stays in the lists as erased, with nothing that names them. This cannot be undone.'),
    ],
    fields: [
      h('label', { for: 'erase-confirm' }, 'Type ERASE to confirm'),
      h('input', { id: 'erase-confirm', name: 'confirm', required: true, pattern: 'ERASE', autocomplete: 'off' }),
    ],
    confirm: 'Erase member',
    danger: true,
  });
  if (!form) return undefined;
  return ctx.api.post<Member>(`/members/${member.id}/erase`, {});
}
