import { date } from '../format';
import { errorText, forMember, render, type Screen } from '../screen';
import { el } from '../ui';
import { membershipLines, membershipPrices } from './membership-lines';
import { seePlans } from './menu-links';

/**
 * The member's memberships as cards, each with its state as a badge (renews, ends, expires, a
 * trial's end and the price after it) and what it costs them (GET /memberships); a
 * running subscription can be cancelled at period end, after the member said yes to what that
 * means. A failure to cancel is said in the card.
 */
export const membershipsScreen: Screen = forMember(async (ctx, member) => {
  const { doc, t, config, host } = ctx;
  const { locale } = config;
  const prices = await membershipPrices(ctx);
  const items = member.memberships
    .filter((m) => m.status === 'active')
    .map((m) => {
      const cancellable = m.type === 'subscription' && !m.cancelsOn && !!m.billingPeriodEnd;
      const actions = el(doc, 'div', { class: 'actions' });
      const button = (label: string, cls: string, onClick: () => void) => {
        const b = el(doc, 'button', { type: 'button', class: cls }, label);
        b.addEventListener('click', onClick);
        return b;
      };
      const offerCancel = () => actions.replaceChildren(button(`${t.cancel}: ${m.name}`, '', ask));
      // Asked in the card: what cancelling means, yes or keep.
      const ask = () => {
        const yes = button(t.cancelYes, 'primary', () => {
          yes.disabled = true;
          void host
            .call('POST', `/memberships/${m.id}/cancel`)
            .then(() => host.refresh())
            .then(() => membershipsScreen(ctx), (error: unknown) => {
              offerCancel();
              actions.prepend(el(doc, 'p', { role: 'alert', class: 'field-error' }, errorText(t, error).message));
            });
        });
        // The safe choice has the focus: Enter pressed once too often keeps the plan.
        const keep = button(t.keep, '', offerCancel);
        actions.replaceChildren(el(doc, 'p', { role: 'alert' }, t.cancelAsk(m.name, date(m.billingPeriodEnd!, locale))), yes, keep);
        keep.focus();
      };
      if (cancellable) offerCancel();
      // A failed renewal or instalment is retried; a new card is tried at once.
      let failed: HTMLElement | null = null;
      if (m.paymentFailure) {
        const update = el(doc, 'button', { type: 'button', class: 'link' }, t.updateCard);
        update.addEventListener('click', () => ctx.show(ctx.screens.paymentMethod, membershipsScreen));
        failed = el(doc, 'p', { role: 'alert', class: 'field-error' }, `${t.paymentFailed} `, update);
      }
      return el(doc, 'li', {}, ...membershipLines(ctx, m, prices.get(m.id)), failed, cancellable ? actions : null);
    });
  render(ctx, t.memberships, ...(items.length > 0 ? [el(doc, 'ul', { class: 'cards' }, ...items)] : [el(doc, 'p', {}, t.noMemberships), seePlans(ctx, membershipsScreen)]));
  // Cancel is never the control a member lands on: the header's first button is then.
  const root = ctx.dialog._root;
  if (root.activeElement?.matches('.actions button')) root.querySelector<HTMLElement>('header button')!.focus();
});
