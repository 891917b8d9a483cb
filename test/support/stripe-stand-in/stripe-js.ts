/**
 * The stand-in's Stripe.js, served at `GET /v3/` (as `https://js.stripe.com/v3/`): `window.Stripe`
 * with what the widget uses, held to what Stripe.js requires.
 *
 * - `stripe.elements({ mode, amount, currency, paymentMethodCreation: 'manual', appearance })` and
 *   `elements.create('payment').mount(target)`: a card field (number, expiry, security code) in
 *   `target`. Mounting inside a shadow root throws, as Stripe documents. Where Stripe draws the
 *   field in an iframe of its own, the stand-in draws inputs in the page: what the tests prove is
 *   that the card goes to "Stripe" (this server) and never to the service.
 * - `elements.submit()` checks the field; `stripe.createPaymentMethod({ elements })` throws unless
 *   `paymentMethodCreation` is `'manual'` and `submit()` came first, then POSTs the card to
 *   `/v1/payment_methods` with the publishable key as the form's `key`, as Stripe.js does.
 * - `stripe.handleNextAction({ clientSecret })`: the bank's 3-D Secure page, as a modal dialog
 *   with "Complete" and "Fail" (the stand-in's authenticate endpoint), then the intent.
 *
 * Written as a function typed with @stripe/stripe-js's own types, and served as its source text.
 */
import type { Appearance, PaymentMethod, StripeConstructor, StripeElementsOptionsMode } from '@stripe/stripe-js';

interface StandInElements {
  _options: StripeElementsOptionsMode;
  _submitted: boolean;
  _card?: { number: HTMLInputElement; expiry: HTMLInputElement; cvc: HTMLInputElement };
}

type Failure = { error: { type: string; code?: string; message: string } };

function installStandInStripe(apiBase: string): void {
  const construct = (key: string) => {
    const post = async (path: string, params: Record<string, string>): Promise<Record<string, unknown>> => {
      const response = await fetch(apiBase + path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ key, ...params }),
      });
      return (await response.json()) as Record<string, unknown>;
    };
    const digits = (input: HTMLInputElement) => input.value.replace(/\D/g, '');
    return {
      elements(options: StripeElementsOptionsMode) {
        const state: StandInElements = { _options: options, _submitted: false };
        return Object.assign(state, {
          create(type: string) {
            if (type !== 'payment') throw new Error(`IntegrationError: the stand-in has the Payment Element only, not ${type}`);
            const changes: ((event: { empty: boolean; complete: boolean }) => void)[] = [];
            return {
              /** `change`, as Stripe's: `empty` while nothing is typed in the field. */
              on(name: string, handler: (event: { empty: boolean; complete: boolean }) => void) {
                if (name === 'change') changes.push(handler);
              },
              mount(where: string | HTMLElement) {
                const target = typeof where === 'string' ? document.querySelector<HTMLElement>(where) : where;
                if (!target) throw new Error('IntegrationError: the selector you specified does not match any element');
                if (target.getRootNode() instanceof ShadowRoot) {
                  throw new Error('IntegrationError: Elements cannot be mounted in a ShadowRoot. Please mount in the Light DOM.');
                }
                const field = (label: string, name: string, autocomplete: string) => {
                  const wrap = document.createElement('label');
                  wrap.textContent = label;
                  const input = document.createElement('input');
                  Object.assign(input, { name, autocomplete, inputMode: 'numeric' });
                  wrap.append(input);
                  return { wrap, input };
                };
                const number = field('Card number', 'number', 'cc-number');
                const expiry = field('Expiration date (MM / YY)', 'expiry', 'cc-exp');
                const cvc = field('Security code', 'cvc', 'cc-csc');
                const frame = document.createElement('div');
                frame.dataset.standInPaymentElement = '';
                frame.dataset.appearance = JSON.stringify(options.appearance ?? null);
                frame.append(number.wrap, expiry.wrap, cvc.wrap);
                frame.addEventListener('input', () => {
                  const typed = [number, expiry, cvc].map((f) => digits(f.input).length);
                  for (const handler of changes) handler({ empty: typed.every((n) => n === 0), complete: typed[0]! >= 12 && typed[1] === 4 && typed[2]! >= 3 });
                });
                target.replaceChildren(frame);
                state._card = { number: number.input, expiry: expiry.input, cvc: cvc.input };
              },
            };
          },
          async submit(): Promise<Partial<Failure>> {
            state._submitted = true;
            const card = state._card;
            if (!card) return { error: { type: 'validation_error', message: 'The Payment Element is not mounted.' } };
            if (!/^\d{12,19}$/.test(digits(card.number))) return { error: { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' } };
            if (!/^\d{4}$/.test(digits(card.expiry))) return { error: { type: 'validation_error', code: 'incomplete_expiry', message: "Your card's expiration date is incomplete." } };
            if (!/^\d{3,4}$/.test(digits(card.cvc))) return { error: { type: 'validation_error', code: 'incomplete_cvc', message: "Your card's security code is incomplete." } };
            return {};
          },
        });
      },
      async createPaymentMethod({ elements }: { elements: StandInElements }): Promise<{ paymentMethod: PaymentMethod } | Failure> {
        if (elements._options.paymentMethodCreation !== 'manual') {
          throw new Error("IntegrationError: stripe.createPaymentMethod() with Elements needs paymentMethodCreation: 'manual' on elements()");
        }
        if (!elements._submitted) throw new Error('IntegrationError: elements.submit() must be called before stripe.createPaymentMethod()');
        const card = elements._card!;
        const expiry = digits(card.expiry);
        const made = await post('/v1/payment_methods', {
          type: 'card',
          'card[number]': digits(card.number),
          'card[exp_month]': expiry.slice(0, 2),
          'card[exp_year]': `20${expiry.slice(2)}`,
          'card[cvc]': digits(card.cvc),
        });
        return made.error ? (made as Failure) : { paymentMethod: made as unknown as PaymentMethod };
      },
      async handleNextAction({ clientSecret }: { clientSecret: string }): Promise<Record<string, unknown>> {
        const intentId = clientSecret.split('_secret_')[0]!;
        // The bank's page: over everything, the widget's modal dialog included (a modal dialog
        // of its own: the top layer's newest).
        const outcome = await new Promise<string>((resolve) => {
          const bank = document.createElement('dialog');
          bank.setAttribute('aria-label', '3D Secure test page');
          bank.dataset.standInBank = '';
          const text = document.createElement('p');
          text.textContent = 'Test bank: authenticate this payment?';
          const button = (label: string, value: string) => {
            const b = document.createElement('button');
            b.textContent = label;
            b.onclick = () => {
              bank.close();
              bank.remove();
              resolve(value);
            };
            return b;
          };
          bank.append(text, button('Complete authentication', 'approve'), button('Fail authentication', 'refuse'));
          document.body.append(bank);
          bank.showModal();
        });
        const intent = await post(`/_stand-in/intents/${intentId}/authenticate`, { outcome });
        if (intent.error) return intent;
        return intentId.startsWith('seti_') ? { setupIntent: intent } : { paymentIntent: intent };
      },
    };
  };
  (window as unknown as { Stripe: StripeConstructor }).Stripe = construct as unknown as StripeConstructor;
}

/** Keeps Appearance among the types the stand-in is written against (the widget sends one). */
export type StandInAppearance = Appearance;

/**
 * The served script: the function's source, run with the stand-in's own address (its origin,
 * which the page learns from the script's URL). `__name` is what esbuild may wrap named
 * functions in when it compiles this file; the page has none.
 */
export const STRIPE_JS = `var __name = (f) => f;
(${installStandInStripe.toString()})(new URL(document.currentScript.src).origin);
`;
