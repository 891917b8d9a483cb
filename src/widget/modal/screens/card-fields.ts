import { brandName } from '../format';
import type { PaymentActionRequired, TestPaymentMethod } from '../../../contract/member';
import type { ScreenContext } from '../screen';
import type { CardInputOf } from './card-payment';
import { el, input, labelled } from '../ui';
import { valueOf } from './form';

/** The brand a card number starts with, as the service names brands (`visa`, `amex`…); '' for none. */
export const cardBrand = (digits: string): string =>
  /^4/.test(digits) ? 'visa' : /^(5[1-5]|2[2-7])/.test(digits) ? 'mastercard' : /^3[47]/.test(digits) ? 'amex' : /^6(011|5)/.test(digits) ? 'discover' : '';

/** A card number in the groups printed on the card: 4 4 4 4, American Express 4 6 5. */
export const groupCardNumber = (digits: string): string =>
  (/^3[47]/.test(digits) ? /^(\d{1,4})(\d{1,6})?(\d{1,5})?/.exec(digits)!.slice(1).filter(Boolean) : digits.match(/\d{1,4}/g) ?? []).join(' ');

/**
 * The test processor's card: posted to its endpoint (POST /test-payment-methods), which answers
 * the payment method the screen then sends as `paymentMethodId`, as Stripe.js makes one at
 * Stripe: the member API's other calls never carry a card number.
 */
export const testPaymentMethod = async ({ host }: ScreenContext, form: HTMLFormElement): Promise<string> =>
  (await host.call<TestPaymentMethod>('POST', '/test-payment-methods', { cardNumber: valueOf(form, 'cardNumber'), cardExpiry: valueOf(form, 'cardExpiry'), cardCvc: valueOf(form, 'cardCvc') })).id;

/**
 * The test processor's stand-in for the bank's window (its 3-D Secure test cards, 3155 and 3220:
 * docs/test-cards.md): the browser's own confirm dialog, OK to authorize the payment, Cancel to
 * fail it, as Stripe's test page offers. The answer goes to the processor, and the sign-up then
 * asks the service how the payment ended (POST /memberships/confirm), never the browser. In
 * English whatever the site's language, as Stripe's own test page is: no member of a live site
 * meets it.
 */
export const authorize = ({ host }: ScreenContext, { intentId, clientSecret }: PaymentActionRequired['requiresAction']): Promise<unknown> =>
  host.call('POST', `/test-payment-intents/${encodeURIComponent(intentId)}`, {
    clientSecret,
    approve: confirm('Authorize this test payment?\n(3-D Secure test card)'),
  });

/**
 * The test processor's card fields: number, expiry and security code, named as its endpoint
 * names them. As the member types, the number is spaced in groups and its brand
 * shown under it, and the expiry gets its slash; the caret is left alone when the member edits
 * in the middle.
 */
export function cardFields({ doc, t, dialog }: ScreenContext, required: boolean): HTMLElement[] {
  // Number, expiry and code on one row (stacked on a phone); the brand beside the number's label,
  // its name after its icon: a small card in the brand's colours, drawn by gradients (Visa's blue
  // and gold, Mastercard's two circles; a plain blue card for the others).
  dialog._addStyle('.card{display:grid;grid-template-columns:2fr 1fr 1fr;gap:1rem}@media (max-width:479.9px){.card{grid-template-columns:1fr}}.card .badge{grid-area:1/2}.badge:empty{display:none}'
    + '.badge[class*=" "]:before{content:"";display:inline-block;width:1.5em;height:1em;margin-right:.3em;vertical-align:-.2em;border-radius:.2em;background:var(--k,#2e77bc)}'
    + '.visa{--k:linear-gradient(#1a1f71 70%,#f7b600 0)}.mastercard{--k:radial-gradient(circle at 35%,#eb001b 45%,#0000 0),radial-gradient(circle at 65%,#f79e1b 45%,#222 0)}');
  const need: Record<string, string> = required ? { required: '' } : {};
  const number = input(doc, 'cardNumber', 'text', { inputmode: 'numeric', autocomplete: 'cc-number', ...need });
  const expiry = input(doc, 'cardExpiry', 'text', { inputmode: 'numeric', autocomplete: 'cc-exp', placeholder: 'MM/YY', ...need });
  const brand = el(doc, 'span', { class: 'badge', 'aria-live': 'polite' });
  const reformat = (control: HTMLInputElement, format: (digits: string, event: InputEvent) => string) =>
    control.addEventListener('input', (event) => {
      if (control.selectionStart !== control.value.length) return;
      control.value = format(control.value.replace(/\D/g, ''), event as InputEvent);
    });
  reformat(number, (digits) => {
    const known = cardBrand(digits);
    brand.textContent = brandName(known);
    brand.className = `badge ${known}`;
    return groupCardNumber(digits.slice(0, 19));
  });
  // "12" becomes "12/" as it is typed, not as it is deleted back to.
  reformat(expiry, (digits, event) => (digits.length > 2 || (digits.length === 2 && !event.inputType?.startsWith('delete')) ? `${digits.slice(0, 2)}/${digits.slice(2, 4)}` : digits));
  const numberField = labelled(doc, t.cardNumber, number);
  numberField.classList.add('pw');
  numberField.append(brand);
  return [
    el(doc, 'div', { class: 'card' },
      numberField,
      labelled(doc, t.cardExpiry, expiry),
      labelled(doc, t.cardCvc, input(doc, 'cardCvc', 'text', { inputmode: 'numeric', autocomplete: 'cc-csc', maxlength: '4', ...need }))),
  ];
}

/** The test processor's card input for a paying screen (./card-payment.ts). */
export const cardInput: CardInputOf = async (ctx, _intent, optional) => ({
  nodes: cardFields(ctx, !optional),
  paymentMethodId: async (form) => (valueOf(form, 'cardNumber') ? testPaymentMethod(ctx, form) : undefined),
  authorize: (asked) => authorize(ctx, asked),
});
