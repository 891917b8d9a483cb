/**
 * A payment processor in memory, for tests, the demo and the mock server: it checks cards the
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
 * Its memory ends with the process, but the customers and cards a service saved do not. A
 * customer id of its form (`cus_test_…`) it has not seen is one from before a restart, taken as
 * known with no cards; a payment method's id says how its charges end (`pm_test_ok_…`,
 * `pm_test_declined_…`, `pm_test_nofunds_…`), so a charge on a card from before a restart is
 * taken as it would have been then. 0341 is saved as `pm_test_declined_…`; ids of 0002 and 9995
 * saved before those were refused at saving (`pm_test_declined_…`, `pm_test_nofunds_…`) keep
 * failing their charges as they did.
 *
 * A charge's idempotency key is kept a day, as Stripe keeps them: the same key again answers
 * what the first charge did, and charges nothing. In this process's memory only.
 */
import type { Clock } from '../domain/clock';
import { randomId } from '../domain/random';
import type { EpochMs } from '../store/records';
import {
  CardDeclinedError,
  InvalidCardError,
  PaymentDeclinedError,
  UnknownPaymentReferenceError,
  type CardBrand,
  type CardDetails,
  type CardField,
  type ChargeReceipt,
  type ChargeRequest,
  type DeclineCode,
  type Invoice,
  type PaymentMethod,
  type PaymentProcessor,
} from './processor';

/** The test cards that decline, and when: as they are saved (verified), or on every charge (docs/test-cards.md). */
const DECLINING_CARDS: ReadonlyMap<string, { when: 'saved' | 'charged'; code: DeclineCode }> = new Map([
  ['4000000000000002', { when: 'saved', code: 'card_declined' }],
  ['4000000000009995', { when: 'saved', code: 'insufficient_funds' }],
  ['4000000000000341', { when: 'charged', code: 'card_declined' }],
]);
/**
 * What a payment method's id says about its charges, both ways. New ids are `ok` or (0341)
 * `declined`; `nofunds`, and `declined` of 0002, are ids saved before 0002 and 9995 were refused
 * at saving, still honoured.
 */
const OUTCOME_TAGS = { ok: undefined, declined: 'card_declined', nofunds: 'insufficient_funds' } as const;
const tagOf = (decline: DeclineCode | undefined) => (decline === 'card_declined' ? 'declined' : decline === 'insufficient_funds' ? 'nofunds' : 'ok');
const REMEMBERED_METHOD = /^pm_test_(ok|declined|nofunds)_[A-Za-z0-9]+$/;

export interface TestProcessorOptions {
  /** Decides which expiry dates are past and stamps invoices. */
  clock: Clock;
  /** The random part of ids (`cus_test_<part>`); randomId(14) by default. */
  randomPart?: () => string;
}

/** How long a charge's idempotency key is remembered. */
const IDEMPOTENCY_MS = 24 * 3600_000;

interface StoredMethod {
  method: PaymentMethod;
  decline?: DeclineCode;
}
interface Customer {
  email: string;
  name?: string;
  methods: Map<string, StoredMethod>;
  invoices: Invoice[];
  /** Made again from ids of an earlier run (a restart): its cards are taken at their ids' word. */
  earlier?: boolean;
}

export class TestPaymentProcessor implements PaymentProcessor {
  private readonly customers = new Map<string, Customer>();
  /** Charges by idempotency key, oldest first. */
  private readonly charges = new Map<string, { at: EpochMs; outcome: Promise<ChargeReceipt> }>();
  private readonly clock: Clock;
  private readonly randomPart: () => string;

  constructor(options: TestProcessorOptions) {
    this.clock = options.clock;
    this.randomPart = options.randomPart ?? (() => randomId(14));
  }

  async createCustomer(customer: { email: string; name?: string }): Promise<{ customerId: string }> {
    const customerId = this.newId('cus');
    this.customers.set(customerId, { ...customer, methods: new Map(), invoices: [] });
    return { customerId };
  }

  async addPaymentMethod(customerId: string, card: CardDetails): Promise<PaymentMethod> {
    const customer = this.customer(customerId);
    const { digits, expMonth, expYear } = checkCard(card, this.clock());
    const declining = DECLINING_CARDS.get(digits);
    // The bank refuses the card as it is verified: nothing is kept, and there is no charge to invoice.
    if (declining?.when === 'saved') throw new CardDeclinedError(declining.code);
    const decline = declining?.code;
    const method: PaymentMethod = { id: this.newId(`pm_test_${tagOf(decline)}`), brand: brandOf(digits), last4: digits.slice(-4), expMonth, expYear };
    customer.methods.set(method.id, { method, ...(decline && { decline }) });
    return { ...method };
  }

  async listPaymentMethods(customerId: string): Promise<PaymentMethod[]> {
    return [...this.customer(customerId).methods.values()].map(({ method }) => ({ ...method }));
  }

  charge(customerId: string, paymentMethodId: string, request: ChargeRequest): Promise<ChargeReceipt> {
    const key = request.idempotencyKey;
    if (key === undefined) return this.chargeOnce(customerId, paymentMethodId, request);
    const now = this.clock();
    for (const [old, { at }] of this.charges) {
      if (at > now - IDEMPOTENCY_MS) break;
      this.charges.delete(old);
    }
    const earlier = this.charges.get(key);
    if (earlier) return earlier.outcome;
    const outcome = this.chargeOnce(customerId, paymentMethodId, request);
    this.charges.set(key, { at: now, outcome });
    return outcome;
  }

  private async chargeOnce(customerId: string, paymentMethodId: string, request: ChargeRequest): Promise<ChargeReceipt> {
    const customer = this.customer(customerId);
    const stored = customer.methods.get(paymentMethodId) ?? (customer.earlier ? this.methodFromEarlierRun(customer, paymentMethodId) : undefined);
    if (!stored) throw new UnknownPaymentReferenceError('paymentMethod', paymentMethodId);
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
      throw new RangeError(`amountCents must be a positive integer, got ${request.amountCents}`);
    }
    if (!/^[A-Za-z]{3}$/.test(request.currency)) throw new RangeError(`currency must be an ISO 4217 code, got ${request.currency}`);
    const currency = request.currency.toLowerCase();
    const invoice: Invoice = {
      id: this.newId('in'),
      chargeId: this.newId('ch'),
      amountCents: request.amountCents,
      currency,
      description: request.description,
      status: stored.decline ? 'failed' : 'paid',
      createdAt: this.clock(),
    };
    customer.invoices.push(invoice);
    if (stored.decline) throw new PaymentDeclinedError(stored.decline, invoice.chargeId, invoice.id, invoice.amountCents, currency);
    return { chargeId: invoice.chargeId, invoiceId: invoice.id };
  }

  async listInvoices(customerId: string): Promise<Invoice[]> {
    return this.customer(customerId).invoices.map((invoice) => ({ ...invoice }));
  }

  private methodFromEarlierRun(customer: Customer, paymentMethodId: string): StoredMethod | undefined {
    if (!this.isEarlierMethod(paymentMethodId)) return undefined;
    const decline = OUTCOME_TAGS[REMEMBERED_METHOD.exec(paymentMethodId)![1] as keyof typeof OUTCOME_TAGS];
    const stored: StoredMethod = { method: { id: paymentMethodId, brand: 'unknown', last4: '', expMonth: 0, expYear: 0 }, ...(decline && { decline }) };
    customer.methods.set(paymentMethodId, stored);
    return stored;
  }

  /** Of this processor's form, and not a card this run knows (under another customer). */
  private isEarlierMethod(paymentMethodId: string): boolean {
    return REMEMBERED_METHOD.test(paymentMethodId) && ![...this.customers.values()].some((c) => c.methods.has(paymentMethodId));
  }

  /** The customer; one of this processor's form that this run has not seen comes from before a restart. */
  private customer(customerId: string): Customer {
    const known = this.customers.get(customerId);
    if (known) return known;
    if (!/^cus_test_[A-Za-z0-9]+$/.test(customerId)) throw new UnknownPaymentReferenceError('customer', customerId);
    const earlier: Customer = { email: '', methods: new Map(), invoices: [], earlier: true };
    this.customers.set(customerId, earlier);
    return earlier;
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
