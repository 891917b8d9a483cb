import type { Membership, PaymentActionRequired, PlanChangeQuote, PlanOffer } from '../../../contract/member';
import type { ServiceError } from '../../public-types';
import { date, money, perInterval } from '../format';
import { render, type Screen } from '../screen';
import { signUpScreen } from '../screen-chunks';
import { el } from '../ui';
import { cardPayment } from './card-payment';
import { actionForm } from './form';

/**
 * "Change plan" (docs/decisions/0036-changing-plans.md): a member holding the running
 * subscription `held` chose the plan `publicId`. The screen says what changes, what is due now
 * (less the unused days' credit) or that the change waits for the period's end, and what is
 * charged from then; one button makes it (POST /memberships/{id}/change). What is due now is paid
 * as a sign-up is (./card-payment.ts): the saved card or another, the bank asking first if it
 * must (a 202, then POST /memberships/{id}/change/confirm). Where the rules refuse the change (a
 * plan that is no subscription, another currency), joining's screen for the plan is drawn, which
 * signs up to it beside what the member holds, as before.
 */
export const changePlanScreen = (publicId: string, held: Membership): Screen => async (ctx) => {
  const { doc, t, config, host } = ctx;
  const { locale } = config;
  ctx.dialog._addStyle('p+.summary{margin-top:1rem}');
  const path = `/memberships/${held.id}/change`;
  const refused = (error: ServiceError) => {
    // A plan gone is said by joining's screen; a change the rules refuse is a sign-up there.
    if (error.code !== 'notChangeable' && error.code !== 'notFound') throw error;
  };
  const offer = await host.call<PlanOffer>('GET', `/plans/${encodeURIComponent(publicId)}`).catch(refused);
  const quote = offer?.type === 'subscription' && (await host.call<PlanChangeQuote>('GET', `${path}?plan=${encodeURIComponent(publicId)}`).catch(refused));
  if (!offer || !quote) return signUpScreen(publicId)(ctx);
  const when = date(quote.next.at, locale);
  const now = quote.when === 'now';
  const due = quote.dueNow.grandTotalCents;
  const card = due ? await cardPayment(ctx, config.payments ? import('./stripe-card') : import('./card-fields'), { currency: quote.currency, amount: due }) : undefined;
  const summary = el(doc, 'div', { class: 'summary' },
    now ? el(doc, 'p', { class: 'row due' }, el(doc, 'span', {}, `${t.dueNow}: `), money(due, quote.currency, locale)) : el(doc, 'p', {}, t.changesOn(when)),
    quote.creditCents ? el(doc, 'p', { class: 'muted' }, t.credit(money(quote.creditCents, quote.currency, locale))) : null,
    el(doc, 'p', { class: 'muted' }, t.then(perInterval(offer, t, locale, true), when)));
  const form = actionForm(ctx, t.changePlan, card?.nodes ?? [], async (f) => {
    const paymentMethodId = await card?.paymentMethodId(f);
    const answer = await host.call<Membership | PaymentActionRequired>('POST', path, { plan: offer.publicId, ...(paymentMethodId && { paymentMethodId }) }).catch((error: ServiceError) => {
      if (error.code === 'paymentDeclined') card?.reveal();
      throw error;
    });
    if ('requiresAction' in answer) {
      await card!.authorize(answer.requiresAction);
      await host.call<Membership>('POST', `${path}/confirm`, { intentId: answer.requiresAction.intentId });
    }
    await host.refresh();
    const done = el(doc, 'button', { type: 'button', class: 'primary' }, t.carryOn);
    done.onclick = ctx.close;
    render(ctx, offer.name, el(doc, 'p', { class: 'notice', role: 'status' }, now ? t.planNow(offer.name) : t.planLater(offer.name, when)), done);
  });
  render(ctx, t.changePlan, el(doc, 'p', {}, t.changeFrom(held.name, offer.name)), summary, form);
};
