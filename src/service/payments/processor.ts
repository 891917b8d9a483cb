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

export interface PaymentProcessor {
  /** `customerId` is what the conversion event reports as `processorCustomerId`. */
  createCustomer(customer: { email: string; name?: string }): Promise<{ customerId: string }>;
  /**
   * Verifies the card with its bank as it saves it, as Stripe does. Throws InvalidCardError naming
   * every bad field, and CardDeclinedError when the bank refuses the card; either way nothing is saved.
   */
  addPaymentMethod(customerId: string, card: CardDetails): Promise<PaymentMethod>;
  listPaymentMethods(customerId: string): Promise<PaymentMethod[]>;
  /** Throws PaymentDeclinedError when the card is declined; the failed attempt still has an invoice. */
  charge(customerId: string, paymentMethodId: string, request: ChargeRequest): Promise<ChargeReceipt>;
  /** Oldest first, failed attempts included. */
  listInvoices(customerId: string): Promise<Invoice[]>;
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
  code === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.';

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
    readonly resource: 'customer' | 'paymentMethod',
    readonly id: string,
  ) {
    super(`unknown ${resource} ${id}`);
  }
}
