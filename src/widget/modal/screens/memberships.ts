import type { Membership } from '../../../contract/member';
import { date } from '../format';
import { forMember, render, type Screen } from '../screen';
import { el } from '../ui';

/** The member's memberships, with their dates; a running subscription can be cancelled at period end. */
export const membershipsScreen: Screen = forMember((ctx, member) => {
  const { doc, t, config, host } = ctx;
  const when = (m: Membership) =>
    m.cancelsOn ? t.cancelsOn(date(m.cancelsOn, config.locale))
      : m.expiresOn ? t.expiresOn(date(m.expiresOn, config.locale))
        : m.billingPeriodEnd ? t.renewsOn(date(m.billingPeriodEnd, config.locale))
          : '';
  const items = member.memberships
    .filter((m) => m.status === 'active')
    .map((m) => {
      const cancellable = m.type === 'subscription' && !m.cancelsOn && !!m.billingPeriodEnd;
      const cancel = cancellable ? el(doc, 'button', { type: 'button' }, `${t.cancel}: ${m.name}`) : null;
      cancel?.addEventListener('click', () => {
        cancel.disabled = true;
        void host
          .call('POST', `/memberships/${m.id}/cancel`)
          .then(() => host.refresh())
          .then(() => membershipsScreen(ctx), () => (cancel.disabled = false));
      });
      // A failed renewal or instalment is retried; a new card is tried at once.
      let failed: HTMLElement | null = null;
      if (m.paymentFailure) {
        const update = el(doc, 'button', { type: 'button', class: 'link' }, t.updateCard);
        update.addEventListener('click', () => ctx.show(ctx.screens.paymentMethod));
        failed = el(doc, 'p', { role: 'alert' }, `${t.paymentFailed} `, update);
      }
      return el(doc, 'li', {}, el(doc, 'strong', {}, m.name), ' ', when(m), cancel ? ' ' : null, cancel, failed);
    });
  render(ctx, t.memberships, items.length > 0 ? el(doc, 'ul', {}, ...items) : el(doc, 'p', {}, t.noMemberships));
});
