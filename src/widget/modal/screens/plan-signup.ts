import type { ConversionDetail, PaymentActionRequired, PlanOffer } from '../../../contract/member';
import { date, money, percent, perInterval, price, terms } from '../format';
import type { ServiceError } from '../../public-types';
import { richText } from '../rich-text';
import { render, type Screen, type ScreenContext } from '../screen';
// The plan's screen as the router draws it: a member holding a running subscription changes plan there.
import { planSignupScreen as planScreen } from '../screen-chunks';
import { el } from '../ui';
import { cardPayment } from './card-payment';
import { actionForm } from './form';
import { haveAccount, seePlans } from './menu-links';
import { accountFields, registerFrom } from './register';

/**
 * One plan's sign-up, as a card: the plan (price and interval, trial, instalments, billing date,
 * expiry, its description), an order summary (fee, tax, due now, what follows), then the card
 * when something is due or will be, and POST /memberships. Success sends `Service.conversion`
 * and goes to the plan's welcome page, when the owner named one; else the dialog says it worked, the reader
 * staying on the page. A member on the plan already goes to its content (spec 4.1).
 * The card is ./card-payment.ts's; a payment the bank wants confirmed (202) is confirmed in its
 * window, then POST /memberships/confirm, where the service asks the processor how it went. A
 * member holding a running subscription meets "Change plan" instead (../screen-chunks.ts).
 */
export function planSignupScreen(publicId: string): Screen {
  return async (ctx: ScreenContext) => {
    const { doc, t, config, host } = ctx;
    const { locale } = config;
    // A plan no longer offered (archived, or never there): said, with the way to the plans.
    const offer = await host.call<PlanOffer>('GET', `/plans/${encodeURIComponent(publicId)}`).catch((error: ServiceError) => {
      if (error.code !== 'notFound') throw error;
    });
    if (!offer) return render(ctx, t.plans, el(doc, 'p', { role: 'alert' }, t.planGone), seePlans(ctx));
    const member = host.member();
    const mine = member?.memberships.find((m) => m.publicPlanId === offer.publicId && m.status === 'active');
    if (mine) return ctx.go(mine.contentUrl);
    const { currency, dueNow, recurring } = offer;
    // A visitor makes the account in the same form, above the card: one step (spec 4.1's
    // "register first": the account is made before the plan is signed up for).
    const account = member ? [] : accountFields(ctx);
    const login = member ? null : haveAccount(ctx, planScreen(publicId));
    const card = currency ? await cardPayment(ctx, config.payments ? import('./stripe-card') : import('./card-fields'), { currency, amount: dueNow.grandTotalCents }) : undefined;
    // The button says what happens: joining free, starting the trial, subscribing, or paying what is due.
    const action = !currency ? t.joinFree : offer.trialDays ? t.startTrial(offer.trialDays)
      : offer.type === 'subscription' ? t.subscribe : t.pay(money(dueNow.grandTotalCents, currency, locale));
    const form = actionForm(ctx, action, [...account, ...(card?.nodes ?? [])], async (f) => {
      if (!host.member()) {
        // Not logged in after all (a mailed code first): the code's screen is drawn, then this one.
        if (!(await registerFrom(ctx, f, planScreen(publicId)))) return;
        // The account is made: a card refused next is tried again without making it twice.
        for (const node of [...account, login]) node?.remove();
      }
      const paymentMethodId = await card?.paymentMethodId(f);
      const body = { planPublicId: offer.publicId, ...(paymentMethodId && { paymentMethodId }) };
      let detail = await host.call<ConversionDetail | PaymentActionRequired>('POST', '/memberships', body).catch((error: ServiceError) => {
        if (error.code === 'paymentDeclined') card?.reveal();
        throw error;
      });
      if ('requiresAction' in detail) {
        const asked = detail.requiresAction;
        await card!.authorize(asked);
        detail = await host.call<ConversionDetail>('POST', '/memberships/confirm', { intentId: asked.intentId });
      }
      await host.converted(detail);
      // The owner's welcome page when the plan names one; else the reader stays on this page, told it worked.
      if (offer.welcomeUrl) return ctx.go(offer.welcomeUrl);
      const done = el(doc, 'button', { type: 'button', class: 'primary' }, t.carryOn);
      done.onclick = ctx.close;
      render(ctx, offer.name, el(doc, 'p', { class: 'notice', role: 'status' }, t.joined(offer.name)), done);
    });
    const row = (label: string, cents: number, cls = 'row') => el(doc, 'p', { class: cls }, el(doc, 'span', {}, `${label}: `), money(cents, currency!, locale));
    const summary = currency
      ? el(doc, 'div', { class: 'summary' },
        offer.signupFeeCents ? row(t.signupFee, offer.signupFeeCents) : null,
        dueNow.taxCents ? row(t.tax(percent(offer.taxPercentage!, locale)), dueNow.taxCents) : null,
        row(t.dueNow, dueNow.grandTotalCents, 'row due'),
        recurring ? el(doc, 'p', { class: 'muted' }, (offer.trialDays ? t.trialThen : t.then)(perInterval(offer, t, locale, true), date(offer.billingPeriodEnd ?? recurring.firstChargeAt, locale))) : null)
      : null;
    render(
      ctx,
      offer.name,
      el(doc, 'p', { class: 'price' }, price(offer, t, locale)),
      ...terms(offer, t, locale, true).map((line) => el(doc, 'p', { class: 'terms' }, line)),
      ...[offer.description, offer.taxDescription].filter((html): html is string => !!html).map((html) => el(doc, 'div', { class: 'rich' }, richText(doc, html))),
      summary,
      form,
      login,
    );
  };
}
