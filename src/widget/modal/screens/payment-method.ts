import type { Membership, PaymentActionRequired, SavedCard } from '../../../contract/member';
import { brandName } from '../format';
import { forMember, render, type Screen } from '../screen';
import { el } from '../ui';
import { actionForm } from './form';

/**
 * The saved card (GET /payment-method) and a form to replace it (PUT): the test processor's card
 * fields, or Stripe's on a Stripe site. With joining's screens (chunks/join.ts): what pays for a
 * plan, not the account's other forms, is downloaded with it.
 */
export const paymentMethodScreen: Screen = forMember(async (ctx) => {
  const { doc, t, host, config } = ctx;
  const { payments } = config;
  const saved = await host.call<SavedCard | null>('GET', '/payment-method').catch(() => null);
  const status = el(doc, 'p', { role: 'status', class: 'summary' }, saved ? `${brandName(saved.brand)} •••• ${saved.last4} (${String(saved.expMonth).padStart(2, '0')}/${String(saved.expYear).slice(-2)})` : t.noCard);
  // The processor's card input, as the paying screens use it (./card-payment.ts): Stripe's field,
  // set up for later charges (nothing due now), or the test processor's fields.
  const input = await (payments ? import('./stripe-card') : import('./card-fields')).then((m) => m.cardInput(ctx, { currency: config.currency, amount: 0 }, false));
  const form = actionForm(
    ctx,
    t.saveCard,
    input.nodes,
    async (f) => {
      const paymentMethodId = await input.paymentMethodId(f);
      const card = await host.call<SavedCard>('PUT', '/payment-method', { paymentMethodId });
      status.textContent = `${t.saved} ${brandName(card.brand)} •••• ${card.last4}`;
      f.reset();
      // The brand shown under the emptied number goes too.
      f.querySelector('[name=cardNumber]')?.dispatchEvent(new Event('input'));
      // The service retried a failed payment on the new card: the memberships show how it went.
      if (host.member()?.memberships.some((m) => m.paymentFailure)) await host.refresh();
    },
  );
  // A payment that failed (above all one the bank held for the member: 3-D Secure on a renewal)
  // is paid from here, where the payment-failed mail links: on the saved card, the bank asking
  // first if it must, in Stripe's window or the test processor's (POST /memberships/{id}/pay).
  const pay = (host.member()?.memberships ?? [])
    .filter((m) => m.paymentFailure && m.status === 'active')
    .map((m) => {
      const path = `/memberships/${m.id}/pay`;
      const payForm = actionForm(ctx, `${t.payNow}: ${m.name}`, [], async () => {
        const answer = await host.call<Membership | PaymentActionRequired>('POST', path);
        if ('requiresAction' in answer) {
          const asked = answer.requiresAction;
          await input.authorize(asked);
          await host.call<Membership>('POST', `${path}/confirm`, { intentId: asked.intentId });
        }
        payForm.remove();
        await host.refresh();
      });
      return payForm;
    });
  render(ctx, t.paymentMethod, status, form, ...pay);
});
