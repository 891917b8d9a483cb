import type { Membership } from '../../../contract/member';
import { date } from '../format';
import { errorText, forMember, render, type Screen } from '../screen';
import { el } from '../ui';
import { seePlans } from './menu-links';

/**
 * The member's memberships as cards, each with its state as a badge (renews, ends, expires); a
 * running subscription can be cancelled at period end, after the member said yes to what that
 * means. A failure to cancel is said in the card.
 */
export const membershipsScreen: Screen = forMember((ctx, member) => {
  const { doc, t, config, host } = ctx;
  const badge = (m: Membership) => {
    const [cls, text] = m.cancelsOn ? ['warn', t.cancelsOn(date(m.cancelsOn, config.locale))]
      : m.expiresOn ? ['warn', t.expiresOn(date(m.expiresOn, config.locale))]
        : m.billingPeriodEnd ? ['ok', t.renewsOn(date(m.billingPeriodEnd, config.locale))]
          : [];
    return text ? el(doc, 'span', { class: `badge ${cls}` }, text) : null;
  };
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
        actions.replaceChildren(el(doc, 'p', { role: 'alert' }, t.cancelAsk(m.name, date(m.billingPeriodEnd!, config.locale))), yes, keep);
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
      return el(doc, 'li', {}, el(doc, 'h3', {}, m.name), ' ', badge(m), failed, cancellable ? actions : null);
    });
  render(ctx, t.memberships, ...(items.length > 0 ? [el(doc, 'ul', { class: 'cards' }, ...items)] : [el(doc, 'p', {}, t.noMemberships), seePlans(ctx, membershipsScreen)]));
});
