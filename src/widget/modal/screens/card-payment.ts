import type { PaymentActionRequired, SavedCard } from '../../../contract/member';
import { brandName } from '../format';
import type { ScreenContext } from '../screen';
import { el } from '../ui';

/** A processor's card input (./card-fields.ts for the test processor, ./stripe-card.ts for Stripe), as a paying screen uses it. */
export interface CardInput {
  /** The fields, for the form. */
  nodes: Node[];
  /** The payment method a new card made (Stripe's, or the test processor's endpoint's); undefined when the fields were left empty beside a saved card. */
  paymentMethodId(form: HTMLFormElement): Promise<string | undefined>;
  /** The bank's question, put to the member (Stripe's window, or the test processor's stand-in for it). */
  authorize(asked: PaymentActionRequired['requiresAction']): Promise<unknown>;
}

/** How a processor's chunk makes its input: `optional` beside a saved card, which pays when the fields are left empty. */
export type CardInputOf = (ctx: ScreenContext, intent: { currency: string; amount: number }, optional: boolean) => Promise<CardInput>;

export interface CardPayment extends CardInput {
  /** Shows the new card's fields (the saved card was declined). */
  reveal(): void;
}

/**
 * What pays on a screen that charges a card (a plan's sign-up, a change of plan). With a saved
 * card, a new one's fields wait behind "Use another card" and come out when the saved one is
 * declined. The fields are the processor's chunk's, which the screen names with its own
 * `import()` (a Stripe site never downloads the test processor's, and the size bench sees which
 * screen loads which). Only a payment method goes to the service.
 */
export async function cardPayment(ctx: ScreenContext, processor: Promise<{ cardInput: CardInputOf }>, intent: { currency: string; amount: number }): Promise<CardPayment> {
  const { doc, t, host } = ctx;
  // No saved card is an answer (204, null), not a failure; a visitor has none.
  const saved = host.member() ? await host.call<SavedCard | null>('GET', '/payment-method').catch(() => null) : null;
  const input = await (await processor).cardInput(ctx, intent, !!saved);
  const fields = el(doc, 'div', {}, ...input.nodes);
  const another = el(doc, 'button', { type: 'button', class: 'link' }, t.anotherCard);
  const reveal = () => {
    fields.hidden = false;
    another.remove();
  };
  another.onclick = reveal;
  fields.hidden = !!saved;
  return { ...input, nodes: [...(saved ? [el(doc, 'p', { class: 'muted' }, t.savedCard(brandName(saved.brand), saved.last4), ' ', another)] : []), fields], reveal };
}
