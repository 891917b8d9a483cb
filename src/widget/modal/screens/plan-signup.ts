import type { ConversionDetail, PlanOffer, SavedCard } from '../../../contract/member';
import { brandName, money, price, terms } from '../format';
import { richText } from '../rich-text';
import { render, type Screen, type ScreenContext } from '../screen';
import { el, input, labelled } from '../ui';
import { actionForm, valueOf } from './form';

/**
 * One plan's sign-up: what it costs (price and interval, trial, fee, tax with its description,
 * billing date, instalments, expiry), the card when something is due or will be, then
 * POST /memberships. Success sends `Service.conversion` and goes to the plan's welcome page.
 * A member on the plan already goes to its content (spec 4.1).
 */
export function planSignupScreen(publicId: string): Screen {
  return async (ctx: ScreenContext) => {
    const { doc, t, config, host } = ctx;
    const offer = await host.call<PlanOffer>('GET', `/plans/${encodeURIComponent(publicId)}`);
    const mine = host.member()?.memberships.find((m) => m.publicPlanId === offer.publicId && m.status === 'active');
    if (mine) return ctx.go(mine.contentUrl);
    const paid = !!offer.currency;
    const saved = paid ? await host.call<SavedCard>('GET', '/payment-method').catch(() => null) : null;
    const card = paid
      ? [
          saved ? el(doc, 'p', {}, t.savedCard(brandName(saved.brand), saved.last4)) : null,
          labelled(doc, t.cardNumber, input(doc, 'cardNumber', 'text', { inputmode: 'numeric', autocomplete: 'cc-number', ...(!saved && { required: '' }) })),
          labelled(doc, t.cardExpiry, input(doc, 'cardExpiry', 'text', { autocomplete: 'cc-exp', placeholder: 'MM/YY' })),
          labelled(doc, t.cardCvc, input(doc, 'cardCvc', 'text', { inputmode: 'numeric', autocomplete: 'cc-csc' })),
        ].filter((node): node is HTMLElement => !!node)
      : [];
    const form = actionForm(ctx, t.signUp, card, async (f) => {
      const number = valueOf(f, 'cardNumber');
      const body = { planPublicId: offer.publicId, ...(number && { cardNumber: number, cardExpiry: valueOf(f, 'cardExpiry'), cardCvc: valueOf(f, 'cardCvc') }) };
      const detail = await host.call<ConversionDetail>('POST', '/memberships', body);
      await host.converted(detail);
      ctx.go(detail.membership.welcomeUrl);
    });
    const due = offer.currency ? el(doc, 'p', { class: 'due' }, `${t.dueNow}: ${money(offer.dueNow.grandTotalCents, offer.currency, config.locale)}`) : null;
    render(
      ctx,
      offer.name,
      el(doc, 'p', { class: 'price' }, price(offer, t, config.locale)),
      ...terms(offer, t, config.locale).map((line) => el(doc, 'p', {}, line)),
      ...[offer.taxDescription, offer.description].filter((html): html is string => !!html).map((html) => el(doc, 'div', { class: 'rich' }, richText(doc, html))),
      ...(due ? [due] : []),
      form,
    );
  };
}
