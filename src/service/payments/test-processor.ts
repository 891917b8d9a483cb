/**
 * The built-in payment processor, for tests, the demo and the mock server: it checks cards the
 * way a processor would and answers like one, and moves no money.
 *
 * Its test cards, what each does when saved and when charged and what a member sees, are in one
 * place: docs/test-cards.md (DECLINING_CARDS below is that table in code; keep the two in step).
 * In short, as Stripe does, a card is verified as it is saved: `…0002` and `…9995` are refused
 * then (CardDeclinedError: nothing saved, nothing charged), whatever the plan; `…0341` is saved
 * and every charge on it is declined (PaymentDeclinedError, with a failed invoice); any other
 * number that passes the checks (12-19 digits, Luhn) is saved and charged. Only the brand, last
 * four digits and expiry are kept: never the full number or the CVC.
 *
 * What it keeps (customers, cards, charges) it keeps in the store it is given (decision 0029), as
 * a real processor keeps them on its side: every process of `svc serve --workers N`, `svc
 * billing run` and a restart see the same customers and cards, and a charge's idempotency key is
 * honoured whichever process charged first. Over the memory store (the mock server, in a
 * browser) that is the page's memory. Nothing here is Node-only.
 *
 * A charge's idempotency key is kept a day, as Stripe keeps them: the same key again answers
 * what the first charge did (its receipt, or the same decline with the same ids), and charges
 * nothing.
 *
 * Its 3-D Secure cards, as Stripe's: `…3155`'s bank asks the member to authorize a payment made
 * while they are there (a sign-up: chargeOnSession answers an intent in `requiresAction`), and
 * charges without them succeed; `…3220`'s asks every time, so those fail with
 * `authentication_required`. The member answers in the widget's stand-in for the bank's window
 * (authorizeTestPayment); the service then asks paymentOutcome, never the browser.
 */
import type { Clock } from '../domain/clock';
import { randomId } from '../domain/random';
import type { EpochMs, TestProcessorCard, TestProcessorCharge, TestProcessorIntent } from '../store/records';
import type { TestProcessorMethods } from '../store/store';
import {
  CardDeclinedError,
  InvalidCardError,
  PaymentDeclinedError,
  RefundRefusedError,
  UnknownPaymentReferenceError,
  type RefundRequest,
  type CardBrand,
  type CardDetails,
  type CardField,
  type ChargeReceipt,
  type ChargeRequest,
  type DeclineCode,
  type Invoice,
  type PaymentMethod,
  type PaymentOutcome,
  type PaymentProcessor,
  type RequiresAction,
} from './processor';

/** The test cards that decline, and when: as they are saved (verified), or on every charge (docs/test-cards.md). */
const DECLINING_CARDS: ReadonlyMap<string, { when: 'saved' | 'charged'; code: DeclineCode }> = new Map([
  ['4000000000000002', { when: 'saved', code: 'card_declined' }],
  ['4000000000009995', { when: 'saved', code: 'insufficient_funds' }],
  ['4000000000000341', { when: 'charged', code: 'card_declined' }],
]);
/** The test cards whose bank asks the member to authorize payments (3-D Secure): when it asks (TestProcessorCard.authentication). */
const AUTHENTICATING_CARDS: ReadonlyMap<string, NonNullable<TestProcessorCard['authentication']>> = new Map([
  ['4000002500003155', 'onSession'],
  ['4000000000003220', 'always'],
]);
/** A card's id says how its charges end, for a person reading it: `pm_test_ok_…`, `pm_test_declined_…`, `pm_test_3ds_…`. */
const tagOf = (decline: DeclineCode | undefined, authentication: TestProcessorCard['authentication']) =>
  authentication ? '3ds' : decline === 'card_declined' ? 'declined' : decline === 'insufficient_funds' ? 'nofunds' : 'ok';

export interface TestProcessorOptions {
  /** Decides which expiry dates are past and stamps invoices. */
  clock: Clock;
  /** Where the processor keeps its customers, cards and charges: the service's store. */
  store: TestProcessorMethods;
  /** The random part of ids (`cus_test_<part>`); randomId(14) by default. */
  randomPart?: () => string;
}

/** How long a charge's idempotency key is remembered. */
export const IDEMPOTENCY_MS = 24 * 3600_000;

const methodOf = (card: TestProcessorCard): PaymentMethod => ({
  id: card.id, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear,
});
const outcomeOf = (intent: TestProcessorIntent): PaymentOutcome => ({
  intentId: intent.id, status: intent.status, customerId: intent.customerId, paymentMethodId: intent.cardId,
  amountCents: intent.amountCents, currency: intent.currency, metadata: intent.metadata,
  ...(intent.chargeId && intent.invoiceId && { receipt: { chargeId: intent.chargeId, invoiceId: intent.invoiceId } }),
});
const invoiceOf = (charge: TestProcessorCharge): Invoice => ({
  id: charge.invoiceId, chargeId: charge.chargeId, amountCents: charge.amountCents, currency: charge.currency,
  description: charge.description, status: charge.status, createdAt: charge.createdAt,
});

export class TestPaymentProcessor implements PaymentProcessor {
  private readonly clock: Clock;
  private readonly store: TestProcessorMethods;
  private readonly randomPart: () => string;

  constructor(options: TestProcessorOptions) {
    this.clock = options.clock;
    this.store = options.store;
    this.randomPart = options.randomPart ?? (() => randomId(14));
  }

  async createCustomer(customer: { email: string; name?: string }): Promise<{ customerId: string }> {
    const customerId = this.newId('cus');
    await this.store.createTestProcessorCustomers([
      { id: customerId, email: customer.email, ...(customer.name !== undefined && { name: customer.name }), createdAt: this.clock() },
    ]);
    return { customerId };
  }

  async addPaymentMethod(customerId: string, card: CardDetails): Promise<PaymentMethod> {
    await this.requireCustomer(customerId);
    const now = this.clock();
    const { digits, expMonth, expYear } = checkCard(card, now);
    const declining = DECLINING_CARDS.get(digits);
    // The bank refuses the card as it is verified: nothing is kept, and there is no charge to invoice.
    if (declining?.when === 'saved') throw new CardDeclinedError(declining.code);
    const authentication = AUTHENTICATING_CARDS.get(digits);
    // A bank that always asks refuses a charge made without the member: there is no one to ask.
    const declineCode = declining?.code ?? (authentication === 'always' ? 'authentication_required' : undefined);
    const saved: TestProcessorCard = {
      id: this.newId(`pm_test_${tagOf(declineCode, authentication)}`), customerId, brand: brandOf(digits), last4: digits.slice(-4), expMonth, expYear,
      ...(declineCode && { declineCode }), ...(authentication && { authentication }), createdAt: now,
    };
    await this.store.addTestProcessorCards([saved]);
    return methodOf(saved);
  }

  /**
   * A card its test endpoint made for the member (addPaymentMethod: checked, and a card its bank
   * refuses already refused there) is the customer's: answered as it was saved. Another id is
   * unknown, as at Stripe for a payment method of another account.
   */
  async attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<PaymentMethod> {
    await this.requireCustomer(customerId);
    const card = (await this.store.listTestProcessorCards(customerId)).find((c) => c.id === paymentMethodId);
    if (!card) throw new UnknownPaymentReferenceError('paymentMethod', paymentMethodId);
    return methodOf(card);
  }

  async listPaymentMethods(customerId: string): Promise<PaymentMethod[]> {
    await this.requireCustomer(customerId);
    return (await this.store.listTestProcessorCards(customerId)).map(methodOf);
  }

  /** Off session: a renewal or an instalment, the member away. */
  async charge(customerId: string, paymentMethodId: string, request: ChargeRequest): Promise<ChargeReceipt> {
    const card = await this.chargeableCard(customerId, paymentMethodId, request);
    const now = this.clock();
    // Recorded at once with its outcome; under a key some charge recorded within the day, that
    // charge is the answer instead, whoever (whichever process) recorded it.
    const charge = await this.store.recordTestProcessorCharge(
      {
        invoiceId: this.newId('in'), chargeId: this.newId('ch'), customerId, cardId: card.id, amountCents: request.amountCents,
        currency: request.currency.toLowerCase(), description: request.description, status: card.declineCode ? 'failed' : 'paid',
        ...(card.declineCode && { declineCode: card.declineCode }),
        ...(request.idempotencyKey !== undefined && { idempotencyKey: request.idempotencyKey }),
        createdAt: now,
      },
      now - IDEMPOTENCY_MS,
    );
    if (charge.status === 'failed') {
      throw new PaymentDeclinedError(charge.declineCode ?? 'card_declined', charge.chargeId, charge.invoiceId, charge.amountCents, charge.currency);
    }
    return { chargeId: charge.chargeId, invoiceId: charge.invoiceId };
  }

  /**
   * A sign-up's charge, the member there: charged as `charge` does, unless the card's bank asks the
   * member first (3155, 3220): then an intent waits for their answer (authorizeTestPayment), kept
   * under the request's idempotency key as a charge is. The same key again answers that intent.
   */
  async chargeOnSession(
    customerId: string,
    paymentMethodId: string,
    request: ChargeRequest & { metadata: Record<string, string> },
  ): Promise<ChargeReceipt | RequiresAction> {
    const card = await this.chargeableCard(customerId, paymentMethodId, request);
    if (!card.authentication) return this.charge(customerId, paymentMethodId, request);
    const now = this.clock();
    const id = this.newId('pi');
    const intent = await this.store.recordTestProcessorIntent(
      {
        id, clientSecret: `${id}_secret_${this.randomPart()}`, customerId, cardId: card.id, amountCents: request.amountCents,
        currency: request.currency.toLowerCase(), description: request.description, metadata: { ...request.metadata }, status: 'requiresAction',
        ...(request.idempotencyKey !== undefined && { idempotencyKey: request.idempotencyKey }),
        createdAt: now,
      },
      now - IDEMPOTENCY_MS,
    );
    // The same key again: the intent as the member left it.
    if (intent.status === 'succeeded') return this.chargeOf(intent);
    if (intent.status === 'failed') {
      throw new PaymentDeclinedError('authentication_required', `${intent.id}:declined`, intent.id, intent.amountCents, intent.currency);
    }
    return { status: 'requiresAction', intentId: intent.id, clientSecret: intent.clientSecret };
  }

  /**
   * The member's answer in the widget's stand-in for the bank's window. The intent is settled
   * first, so that of two answers at once only one counts; the charge of an authorized intent is
   * recorded under a key of its own, so recording it again (paymentOutcome, after a crash between
   * the two steps) finds it.
   */
  async authorizeTestPayment(intentId: string, clientSecret: string, approve: boolean): Promise<'succeeded' | 'failed'> {
    const intent = await this.store.getTestProcessorIntent(intentId);
    if (!intent || intent.clientSecret !== clientSecret) throw new UnknownPaymentReferenceError('paymentIntent', intentId);
    const settled = await this.store.settleTestProcessorIntent(
      intentId,
      approve ? { status: 'succeeded', chargeId: this.newId('ch'), invoiceId: this.newId('in') } : { status: 'failed' },
    );
    if (settled!.status === 'succeeded') await this.chargeOf(settled!);
    return settled!.status as 'succeeded' | 'failed';
  }

  async paymentOutcome(intentId: string): Promise<PaymentOutcome> {
    const intent = await this.store.getTestProcessorIntent(intentId);
    if (!intent) throw new UnknownPaymentReferenceError('paymentIntent', intentId);
    if (intent.status === 'succeeded') await this.chargeOf(intent);
    return outcomeOf(intent);
  }

  /** The paid charge of an authorized intent, recorded once whoever asks. */
  private async chargeOf(intent: TestProcessorIntent): Promise<ChargeReceipt> {
    const now = this.clock();
    const charge = await this.store.recordTestProcessorCharge(
      {
        invoiceId: intent.invoiceId!, chargeId: intent.chargeId!, customerId: intent.customerId, cardId: intent.cardId,
        amountCents: intent.amountCents, currency: intent.currency, description: intent.description, status: 'paid',
        idempotencyKey: `authorized:${intent.id}`, createdAt: now,
      },
      // The intent's own key is never forgotten: it is the charge's only record of being made.
      0,
    );
    return { chargeId: charge.chargeId, invoiceId: charge.invoiceId };
  }

  async listInvoices(customerId: string): Promise<Invoice[]> {
    await this.requireCustomer(customerId);
    return (await this.store.listTestProcessorCharges(customerId)).map(invoiceOf);
  }

  /**
   * Checks the refund as a processor would and moves nothing. It does not keep refunds: the
   * service's ledger (the invoice's refundedCents, changed under a lease) is what stops a second
   * refund of what was refunded (service/owner/refund.ts).
   */
  async refund(request: RefundRequest): Promise<{ refundId: string }> {
    await this.requireCustomer(request.customerId);
    const charge = (await this.store.listTestProcessorCharges(request.customerId)).find((c) => c.chargeId === request.chargeId);
    if (!charge) throw new UnknownPaymentReferenceError('charge', request.chargeId);
    if (charge.status !== 'paid') throw new RefundRefusedError(`charge ${charge.chargeId} was not paid: nothing to refund`);
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0 || request.amountCents > charge.amountCents) {
      throw new RefundRefusedError(`a refund of charge ${charge.chargeId} must be 1 to ${charge.amountCents} (minor units), got ${request.amountCents}`);
    }
    return { refundId: this.newId('re') };
  }

  async deleteCustomer(customerId: string): Promise<void> {
    await this.store.deleteTestProcessorCustomer(customerId);
  }

  /** The customer's card, for a charge whose amount and currency are checked as a processor checks them. */
  private async chargeableCard(customerId: string, paymentMethodId: string, request: ChargeRequest): Promise<TestProcessorCard> {
    await this.requireCustomer(customerId);
    const card = (await this.store.listTestProcessorCards(customerId)).find((c) => c.id === paymentMethodId);
    if (!card) throw new UnknownPaymentReferenceError('paymentMethod', paymentMethodId);
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
      throw new RangeError(`amountCents must be a positive integer, got ${request.amountCents}`);
    }
    if (!/^[A-Za-z]{3}$/.test(request.currency)) throw new RangeError(`currency must be an ISO 4217 code, got ${request.currency}`);
    return card;
  }

  private async requireCustomer(customerId: string): Promise<void> {
    if (!(await this.store.getTestProcessorCustomer(customerId))) throw new UnknownPaymentReferenceError('customer', customerId);
  }

  /** `<prefix>_test_<random>`, or `<prefix>_<random>` when the prefix ends in `_test_…` already. */
  private newId(prefix: string): string {
    if (prefix.startsWith('pm_test_')) return `${prefix}_${this.randomPart()}`;
    return `${prefix}_test_${this.randomPart()}`;
  }
}

/** The checks a processor makes before it stores a card; every bad field is named at once. */
function checkCard(card: CardDetails, now: EpochMs): { digits: string; expMonth: number; expYear: number } {
  const issues: { path: CardField; message: string }[] = [];
  const digits = card.cardNumber.replace(/ /g, '');
  const numberProblem = !/^\d+$/.test(digits)
    ? 'must contain only digits and spaces'
    : digits.length < 12 || digits.length > 19
      ? 'must have 12 to 19 digits'
      : !passesLuhn(digits)
        ? 'is not a valid card number'
        : undefined;
  if (numberProblem) issues.push({ path: 'cardNumber', message: numberProblem });

  const expiry = /^(\d{2}) ?\/ ?(\d{2})$/.exec(card.cardExpiry.trim());
  const expMonth = Number(expiry?.[1]);
  const expYear = 2000 + Number(expiry?.[2]);
  if (!expiry || expMonth < 1 || expMonth > 12) issues.push({ path: 'cardExpiry', message: 'must be a month and year as MM/YY' });
  // A card is good until the end of its expiry month.
  else if (Date.UTC(expYear, expMonth, 1) <= now) issues.push({ path: 'cardExpiry', message: 'is in the past: the card has expired' });

  if (!/^\d{3,4}$/.test(card.cardCvc.trim())) issues.push({ path: 'cardCvc', message: 'must be 3 or 4 digits' });

  if (issues.length > 0) throw new InvalidCardError(issues);
  return { digits, expMonth, expYear };
}

/** The Luhn checksum every card number carries in its last digit. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** The card network, from the number's first digits (its IIN range). */
export function brandOf(digits: string): CardBrand {
  if (digits.startsWith('4')) return 'visa';
  if (/^3[47]/.test(digits)) return 'amex';
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  return 'unknown';
}
