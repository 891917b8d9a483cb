import type { SavedCard } from '../../../contract/member';
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
  // On a Stripe site, Stripe's field, set up for later charges (./stripe-card.ts).
  const stripe = payments && (await import('./stripe-card').then((m) => m.stripeCard(ctx, payments, { currency: config.currency })));
  const testCards = payments ? undefined : await import('./card-fields');
  const form = actionForm(
    ctx,
    t.saveCard,
    stripe ? [stripe.field] : testCards!.cardFields(ctx, true),
    async (f) => {
      const paymentMethodId = stripe ? await stripe.paymentMethod() : await testCards!.testPaymentMethod(ctx, f);
      const card = await host.call<SavedCard>('PUT', '/payment-method', { paymentMethodId });
      status.textContent = `${t.saved} ${brandName(card.brand)} •••• ${card.last4}`;
      f.reset();
      // The brand shown under the emptied number goes too.
      f.querySelector('[name=cardNumber]')?.dispatchEvent(new Event('input'));
      // The service retried a failed payment on the new card: the memberships show how it went.
      if (host.member()?.memberships.some((m) => m.paymentFailure)) await host.refresh();
    },
  );
  render(ctx, t.paymentMethod, status, form);
});
