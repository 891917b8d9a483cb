/**
 * The card field of a site that takes payments through Stripe: Stripe's Payment Element, from
 * Stripe.js (loaded from `payments.scriptUrl` when a payment screen first opens), so the card goes
 * from the page to Stripe and the service gets only the payment method Stripe.js made. A chunk of
 * its own (imported by the payment screens on a Stripe site only).
 *
 * Stripe's Elements cannot be mounted inside a shadow root: the field is mounted in a light-DOM
 * child of the modal's host (`slot="svc-card"`) and drawn in the dialog through a named `<slot>`.
 * It takes the dialog's colours, font and corners (the Appearance API), whatever scheme is on.
 */
import type { Appearance, Stripe, StripeConstructor } from '@stripe/stripe-js';
import type { StripePayments } from '../../../contract/member';
import type { ScreenContext } from '../screen';
import { el } from '../ui';
import type { CardInputOf } from './card-payment';

export interface StripeCard {
  /** The slot that shows the field, for the form. */
  field: HTMLElement;
  /**
   * Checks the field and has Stripe make the payment method: its id; undefined when the field was
   * left empty and need not be filled (a saved card pays). Rejects with Stripe's words.
   */
  paymentMethod(): Promise<string | undefined>;
}

let loading: Promise<Stripe> | undefined;

/** Stripe.js and its client for the site's key, once a page (a failed download may be tried again). */
const stripeOf = (doc: Document, { scriptUrl, publishableKey }: StripePayments): Promise<Stripe> =>
  (loading ??= new Promise<Stripe>((resolve, reject) => {
    const script = el(doc, 'script', { src: scriptUrl });
    script.onload = () => resolve((window as unknown as { Stripe: StripeConstructor }).Stripe(publishableKey)!);
    script.onerror = () => {
      loading = undefined;
      // In the member's words: the network (or the page's policy) kept Stripe.js away.
      reject(Object.assign(new Error(`${scriptUrl} could not be loaded`), { code: 'networkError' }));
    };
    doc.head.append(script);
  }));

/** Stripe's words for what went wrong, as the widget's forms show a failure. */
const failed = (error: { message?: string | undefined }) => Promise.reject(new Error(error.message));

/**
 * Mounts the Payment Element for what the screen will do with the card: pay `amount` now
 * (`payment`), or save it for later charges (`setup`: a trial, a new card).
 */
export async function stripeCard(ctx: ScreenContext, payments: StripePayments, intent: { amount?: number; currency: string }, optional?: boolean): Promise<StripeCard> {
  const { doc, dialog } = ctx;
  const stripe = await stripeOf(doc, payments);
  const style = getComputedStyle(dialog._body);
  const [colorPrimary, colorText, colorBackground, fontFamily, borderRadius] = ['a', 't', 'b', 'f', 'r'].map((name) => style.getPropertyValue(`--${name}`).trim());
  const elements = stripe.elements({
    ...(intent.amount ? { mode: 'payment', amount: intent.amount } : { mode: 'setup' }),
    currency: intent.currency,
    paymentMethodCreation: 'manual',
    appearance: { variables: { colorPrimary, colorText, colorBackground, fontFamily, borderRadius } } as Appearance,
  });
  const host = dialog._root.host;
  host.querySelector('[slot=svc-card]')?.remove();
  const target = el(doc, 'div', { slot: 'svc-card' });
  host.append(target);
  const element = elements.create('payment');
  let empty = true;
  element.on('change', (event) => (empty = event.empty));
  element.mount(target);
  return {
    field: el(doc, 'slot', { name: 'svc-card' }),
    async paymentMethod() {
      if (optional && empty) return;
      const checked = await elements.submit();
      if (checked.error) return failed(checked.error);
      const made = await stripe.createPaymentMethod({ elements });
      return made.error ? failed(made.error) : made.paymentMethod.id;
    },
  };
}

/** The bank's confirmation of a payment (3-D Secure), in Stripe's own window; rejects when it did not go through. */
export async function stripeNextAction(doc: Document, payments: StripePayments, clientSecret: string): Promise<void> {
  const done = await (await stripeOf(doc, payments)).handleNextAction({ clientSecret });
  if (done.error) return failed(done.error);
}

/** Stripe's card input for a paying screen (./card-payment.ts): its field, set up for the charge now and later ones. */
export const cardInput: CardInputOf = async (ctx, intent, optional) => {
  const payments = ctx.config.payments!;
  const card = await stripeCard(ctx, payments, intent, optional);
  return { nodes: [card.field], paymentMethodId: card.paymentMethod, authorize: (asked) => stripeNextAction(ctx.doc, payments, asked.clientSecret) };
};
