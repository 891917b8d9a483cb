/**
 * The payment processor as the service sees it: customers, their cards, charges and invoices.
 * Asynchronous throughout so that a real processor (Stripe) can implement it over the network;
 * test-processor.ts keeps everything in the service's store. Types only and plain errors: the service runs in
 * a browser too (the mock server), so nothing here may be Node-only.
 *
 * Amounts are in minor units of a lower-case ISO 4217 currency (billing/money.ts).
 */
import type { EpochMs } from '../store/records';
import type { CardBrand, DeclineCode } from './card-kinds';

export type { CardBrand, DeclineCode } from './card-kinds';

/** The sign-up form's payment fields, as DESIGN.md names them. `cardExpiry` is MM/YY. */
export interface CardDetails {
  cardNumber: string;
  cardExpiry: string;
  cardCvc: string;
}
export type CardField = keyof CardDetails;

/** A stored card. Never its full number or CVC. */
export interface PaymentMethod {
  id: string;
  brand: CardBrand;
  last4: string;
  /** 1-12. */
  expMonth: number;
  /** Four digits. */
  expYear: number;
}

export interface ChargeRequest {
  amountCents: number;
  currency: string;
  /** Shown on the invoice, e.g. the plan's name. */
  description: string;
  /**
   * The same key a second time is the same charge: no money moves again, and the answer is the
   * first one's (Stripe's `Idempotency-Key`). The billing run sends one per membership, due date
   * and attempt.
   */
  idempotencyKey?: string;
}

export interface ChargeReceipt {
  chargeId: string;
  invoiceId: string;
}

export interface Invoice {
  id: string;
  chargeId: string;
  amountCents: number;
  currency: string;
  description: string;
  status: 'paid' | 'failed';
  createdAt: EpochMs;
}

/**
 * A payment the member's bank wants confirmed while the member is there (3-D Secure): the
 * browser runs Stripe.js's `handleNextAction` with the client secret, then the service asks the
 * processor how the intent ended (`paymentOutcome`), never the browser.
 */
export interface RequiresAction {
  status: 'requiresAction';
  intentId: string;
  clientSecret: string;
}

/** How a payment intent ended, as the processor says (the browser's word is never taken). */
export interface PaymentOutcome {
  intentId: string;
  status: 'succeeded' | 'requiresAction' | 'failed';
  customerId: string;
  paymentMethodId?: string;
  amountCents: number;
  currency: string;
  /** What the service wrote on the intent when it made it (site, member, plan). */
  metadata: Record<string, string>;
  /** Set when a payment succeeded. */
  receipt?: ChargeReceipt;
  /** The intent set the card up and moved no money (setUpOnSession): no receipt even when it succeeded. */
  setup?: true;
}

export interface PaymentProcessor {
  /** `customerId` is what the conversion event reports as `processorCustomerId`. */
  createCustomer(customer: { email: string; name?: string }): Promise<{ customerId: string }>;
  /**
   * The built-in test processor only: its card field in the widget posts the card to the member
   * API's test endpoint (`POST /test-payment-methods`), which hands it here and answers the
   * `pm_test_…` payment method, as Stripe.js makes one at Stripe; no other route of the member
   * API takes a card. Verifies the card with its bank as it
   * saves it, as Stripe does. Throws InvalidCardError naming every bad field, and
   * CardDeclinedError when the bank refuses the card; either way nothing is saved. Undefined on
   * Stripe, where the card goes from the page to Stripe.
   */
  addPaymentMethod?(customerId: string, card: CardDetails): Promise<PaymentMethod>;
  listPaymentMethods(customerId: string): Promise<PaymentMethod[]>;
  /** Throws PaymentDeclinedError when the card is declined; the failed attempt still has an invoice. */
  charge(customerId: string, paymentMethodId: string, request: ChargeRequest): Promise<ChargeReceipt>;
  /**
   * Attaches a payment method the member's browser made (Stripe.js's `createPaymentMethod`, the
   * test processor's card field) to the customer, verifying it with its bank: CardDeclinedError
   * when refused, nothing attached. The service never sees the card.
   */
  attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<PaymentMethod>;
  /**
   * A charge with the member there to confirm it (a sign-up): the payment is set up for later
   * charges without them (`setup_future_usage: off_session`). Answers the receipt, or that the
   * bank wants it confirmed in the browser. Throws PaymentDeclinedError as `charge` does.
   */
  chargeOnSession?(customerId: string, paymentMethodId: string, request: ChargeRequest & { metadata: Record<string, string> }): Promise<ChargeReceipt | RequiresAction>;
  /**
   * Sets the member's card up for charges without them when nothing is due now (a trial): Stripe's
   * SetupIntent, confirmed on the server with `usage: off_session`, so the first renewal does not
   * meet a bank that wants the member there. Answers that it is set up, or that the bank wants it
   * confirmed in the browser (3-D Secure). Throws CardDeclinedError when the bank refuses the card.
   * Undefined for a processor whose saved card needs no setting up (the test processor).
   */
  setUpOnSession?(customerId: string, paymentMethodId: string, request: { idempotencyKey: string; metadata: Record<string, string> }): Promise<'setUp' | RequiresAction>;
  /** How an intent made by chargeOnSession or setUpOnSession ended, as the processor has it now. */
  paymentOutcome?(intentId: string): Promise<PaymentOutcome>;
  /**
   * The built-in test processor only: the member's answer in its stand-in for the bank's window
   * (`POST /test-payment-intents/{intentId}`), as Stripe's test 3-D Secure page takes it. The
   * client secret is the one chargeOnSession answered: UnknownPaymentReferenceError for another.
   * Answers how the intent ended (an intent answered before keeps its first answer).
   */
  authorizeTestPayment?(intentId: string, clientSecret: string, approve: boolean): Promise<'succeeded' | 'failed'>;
  /**
   * Oldest first, failed attempts included: the processor's own list, beside the service's ledger
   * (the store's invoices). The Stripe processor has none: Stripe's dashboard is that list.
   */
  listInvoices?(customerId: string): Promise<Invoice[]>;
  /**
   * Reads an event the processor posted to the site's webhook (Stripe's `POST
   * /stripe/webhooks/{subdomain}`), checking its signature against the raw body and that it was
   * signed within five minutes of `receivedAt`: throws ProcessorEventError otherwise. Undefined
   * for a processor that sends no events (the test processor).
   */
  readEvent?(payload: string, signature: string | undefined, receivedAt: EpochMs): ProcessorEvent;
  /**
   * Refunds `amountCents` of the customer's charge (the owner's refund, issue 32). The same
   * idempotency key again refunds nothing more. Throws UnknownPaymentReferenceError for a charge
   * the processor does not know (or not the customer's), RefundRefusedError when the charge was
   * not paid or less is left of it than asked.
   */
  refund(request: RefundRequest): Promise<{ refundId: string }>;
  /** Deletes the customer and their saved cards (an erased member, issue 32); one already gone is no error. */
  deleteCustomer(customerId: string): Promise<void>;
}

export interface RefundRequest {
  customerId: string;
  chargeId: string;
  /** Minor units, positive. */
  amountCents: number;
  idempotencyKey: string;
}

/** A refund the processor would not make: the charge was not paid, or less of it is left than asked. */
export class RefundRefusedError extends Error {
  override readonly name = 'RefundRefusedError';
}

/** An event from the processor, as its webhook delivered it; `object` is the processor's own shape. */
export interface ProcessorEvent {
  id: string;
  type: string;
  object: Record<string, unknown>;
}

/** A webhook delivery that is not the processor's, or is too old to be trusted. */
export class ProcessorEventError extends Error {
  override readonly name = 'ProcessorEventError';
}

/** Card details the processor refuses before any charge: the member's input error. */
export class InvalidCardError extends Error {
  override readonly name = 'InvalidCardError';
  constructor(readonly issues: { path: CardField; message: string }[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  }
}

/** What the member is told, the same whether the card was refused as it was saved or when charged. */
export const declineMessage = (code: DeclineCode): string =>
  code === 'insufficient_funds'
    ? 'Your card has insufficient funds.'
    : code === 'authentication_required'
      ? 'Your bank asks you to confirm this payment.'
      : 'Your card was declined.';

/**
 * A card its bank refused as it was saved (verified), before any charge: there is no charge,
 * invoice or amount, and the card is not saved.
 */
export class CardDeclinedError extends Error {
  override readonly name = 'CardDeclinedError';
  constructor(readonly declineCode: DeclineCode) {
    super(declineMessage(declineCode));
  }
}

/**
 * A charge the card's bank refused. It carries the failed attempt's ids and amount, which an
 * `abandonedConversion` member event records.
 */
export class PaymentDeclinedError extends Error {
  override readonly name = 'PaymentDeclinedError';
  constructor(
    readonly declineCode: DeclineCode,
    readonly chargeId: string,
    readonly invoiceId: string,
    readonly amountCents: number,
    readonly currency: string,
  ) {
    super(declineMessage(declineCode));
  }
}

/** A customer or payment method id the processor does not know (or not for that customer): a service bug. */
export class UnknownPaymentReferenceError extends Error {
  override readonly name = 'UnknownPaymentReferenceError';
  constructor(
    readonly resource: 'customer' | 'paymentMethod' | 'paymentIntent' | 'charge',
    readonly id: string,
  ) {
    super(`unknown ${resource} ${id}`);
  }
}
