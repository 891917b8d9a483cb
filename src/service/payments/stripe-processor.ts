/**
 * The owner's Stripe account as the service's payment processor (issue 28, decision 0033), over
 * the official `stripe` package and the API version it pins. Stripe moves the money; the service
 * decides when (its billing engine), as with the test processor.
 *
 * Cards never reach the service: the member's browser turns the card into a PaymentMethod with
 * Stripe.js, and the service attaches it to the member's Customer, then pays with PaymentIntents
 * confirmed on the server (Stripe's "finalize payments on the server"): `confirm: true`,
 * automatic payment methods without redirects (`payment_method_types` is not writable at this
 * API version), `setup_future_usage: 'off_session'` on a sign-up so renewals can be charged
 * without the member, `off_session: true` on renewals. Every write carries an idempotency key.
 *
 * Node only (the `stripe` package): built by `svc serve` and the billing run, never by the mock
 * server, which runs the service in a browser.
 */
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import {
  CardDeclinedError,
  PaymentDeclinedError,
  ProcessorEventError,
  RefundRefusedError,
  UnknownPaymentReferenceError,
  type CardBrand,
  type ChargeReceipt,
  type ChargeRequest,
  type DeclineCode,
  type PaymentMethod,
  type PaymentOutcome,
  type PaymentProcessor,
  type ProcessorEvent,
  type RefundRequest,
  type RequiresAction,
} from './processor';

export interface StripeProcessorOptions {
  secretKey: string;
  /** The webhook's signing secret (`whsec_…`): without it, no event is read. */
  webhookSecret?: string;
  /** `SVC_STRIPE_API_URL`, for tests only: a Stripe stand-in (`http://127.0.0.1:port`). */
  apiUrl?: string;
}

/**
 * The `stripe` package, loaded when the first Stripe processor is made: it was a third of a
 * second of every `svc serve` start, most of which take no payment through Stripe. Its CommonJS
 * build, so a processor can still be made at once (ProcessorFor answers synchronously); its error
 * classes are this build's, which is what the client made here throws.
 */
let sdk: typeof Stripe | undefined;
const stripeSdk = (): typeof Stripe => (sdk ??= createRequire(import.meta.url)('stripe') as typeof Stripe);

/** The package's client, pointed at Stripe, or at a stand-in for tests. */
export function stripeClient({ secretKey, apiUrl }: StripeProcessorOptions): Stripe {
  if (!apiUrl) return new (stripeSdk())(secretKey, { maxNetworkRetries: 2 });
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new (stripeSdk())(secretKey, { host: url.hostname, port: Number(url.port) || (protocol === 'http' ? 80 : 443), protocol, maxNetworkRetries: 0 });
}

const BRANDS: ReadonlySet<string> = new Set(['visa', 'mastercard', 'amex']);
const brandOf = (brand: string | undefined): CardBrand => (brand && BRANDS.has(brand) ? (brand as CardBrand) : 'unknown');

/** Confirmation on the server, without redirects: a card needs none (3-D Secure runs in Stripe.js). */
const NO_REDIRECTS = { enabled: true, allow_redirects: 'never' } as const;

/** How old a delivery's signature may be, as Stripe's own libraries default to: replays beyond it are refused. */
const EVENT_TOLERANCE_SECONDS = 300;

export class StripePaymentProcessor implements PaymentProcessor {
  private readonly stripe: Stripe;
  private readonly webhookSecret: string | undefined;

  constructor(options: StripeProcessorOptions) {
    this.stripe = stripeClient(options);
    this.webhookSecret = options.webhookSecret;
  }

  readEvent(payload: string, signature: string | undefined, receivedAt: number): ProcessorEvent {
    if (!this.webhookSecret) throw new ProcessorEventError('this site has no webhook signing secret');
    if (!signature) throw new ProcessorEventError('no Stripe-Signature header');
    try {
      const event = this.stripe.webhooks.constructEvent(payload, signature, this.webhookSecret, EVENT_TOLERANCE_SECONDS, undefined, receivedAt);
      return { id: event.id, type: event.type, object: event.data.object as unknown as Record<string, unknown> };
    } catch (error) {
      // The package's words (no signature matches, timestamp outside the tolerance zone) say which.
      throw new ProcessorEventError((error as Error).message);
    }
  }

  async createCustomer(customer: { email: string; name?: string }): Promise<{ customerId: string }> {
    const created = await this.stripe.customers.create({ email: customer.email, ...(customer.name && { name: customer.name }) });
    return { customerId: created.id };
  }

  /** Cards go to Stripe, from the member's browser: the service never holds one. */
  async attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<PaymentMethod> {
    try {
      const method = await this.stripe.paymentMethods.attach(paymentMethodId, { customer: customerId }, { idempotencyKey: `attach:${customerId}:${paymentMethodId}` });
      return methodOf(method);
    } catch (error) {
      throw declinedOrUnknown(error, 'paymentMethod', paymentMethodId) ?? error;
    }
  }

  async listPaymentMethods(customerId: string): Promise<PaymentMethod[]> {
    const list = await this.stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 });
    return list.data.map(methodOf);
  }

  /** Off session: a renewal or an instalment, the member away. */
  async charge(customerId: string, paymentMethodId: string, request: ChargeRequest): Promise<ChargeReceipt> {
    const intent = await this.pay(customerId, paymentMethodId, request, { off_session: true });
    if (intent.status !== 'succeeded') throw this.declined(intent, 'authentication_required');
    return receiptOf(intent);
  }

  async chargeOnSession(
    customerId: string,
    paymentMethodId: string,
    request: ChargeRequest & { metadata: Record<string, string> },
  ): Promise<ChargeReceipt | RequiresAction> {
    const intent = await this.pay(customerId, paymentMethodId, request, { setup_future_usage: 'off_session', metadata: request.metadata });
    if (intent.status === 'succeeded') return receiptOf(intent);
    if (intent.status === 'requires_action' && intent.client_secret) return { status: 'requiresAction', intentId: intent.id, clientSecret: intent.client_secret };
    throw this.declined(intent, 'card_declined');
  }

  async setUpOnSession(customerId: string, paymentMethodId: string, request: { idempotencyKey: string; metadata: Record<string, string> }): Promise<'setUp' | RequiresAction> {
    let intent: Stripe.SetupIntent;
    try {
      intent = await this.stripe.setupIntents.create(
        { customer: customerId, payment_method: paymentMethodId, confirm: true, usage: 'off_session', automatic_payment_methods: NO_REDIRECTS, metadata: request.metadata },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      throw declinedOrUnknown(error, 'paymentMethod', paymentMethodId) ?? error;
    }
    if (intent.status === 'succeeded') return 'setUp';
    if (intent.status === 'requires_action' && intent.client_secret) return { status: 'requiresAction', intentId: intent.id, clientSecret: intent.client_secret };
    throw new CardDeclinedError('card_declined');
  }

  async paymentOutcome(intentId: string): Promise<PaymentOutcome> {
    try {
      // A SetupIntent (a trial's card set up) moved no money: no amount, no receipt.
      if (intentId.startsWith('seti_')) return { ...outcomeOf(await this.stripe.setupIntents.retrieve(intentId)), amountCents: 0, currency: '', setup: true };
      const intent = await this.stripe.paymentIntents.retrieve(intentId);
      const outcome = outcomeOf(intent);
      return { ...outcome, amountCents: intent.amount, currency: intent.currency, ...(outcome.status === 'succeeded' && { receipt: receiptOf(intent) }) };
    } catch (error) {
      throw declinedOrUnknown(error, 'paymentIntent', intentId) ?? error;
    }
  }

  async refund(request: RefundRequest): Promise<{ refundId: string }> {
    try {
      const refund = await this.stripe.refunds.create(
        { charge: request.chargeId, amount: request.amountCents, metadata: { reason: 'the site owner refunded it' } },
        { idempotencyKey: request.idempotencyKey },
      );
      return { refundId: refund.id };
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError) {
        if (error.code === 'resource_missing') throw new UnknownPaymentReferenceError('charge', request.chargeId);
        // amount_too_large, charge_already_refunded, a charge that did not succeed: Stripe's words say which.
        throw new RefundRefusedError(error.message);
      }
      throw error;
    }
  }

  async deleteCustomer(customerId: string): Promise<void> {
    try {
      await this.stripe.customers.del(customerId);
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError && error.code === 'resource_missing') return;
      throw error;
    }
  }

  /** A PaymentIntent confirmed at once; a card error comes back as the intent it left. */
  private async pay(
    customerId: string,
    paymentMethodId: string,
    request: ChargeRequest,
    more: Pick<Stripe.PaymentIntentCreateParams, 'off_session' | 'setup_future_usage' | 'metadata'>,
  ): Promise<Stripe.PaymentIntent> {
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) throw new RangeError(`amountCents must be a positive integer, got ${request.amountCents}`);
    try {
      return await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          customer: customerId,
          payment_method: paymentMethodId,
          description: request.description,
          confirm: true,
          automatic_payment_methods: NO_REDIRECTS,
          ...more,
        },
        request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : undefined,
      );
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeCardError && error.payment_intent) throw this.declined(error.payment_intent, codeOf(error));
      throw declinedOrUnknown(error, 'paymentMethod', paymentMethodId) ?? error;
    }
  }

  private declined(intent: Stripe.PaymentIntent, fallback: DeclineCode): PaymentDeclinedError {
    const error = intent.last_payment_error;
    const code: DeclineCode = error ? codeOf(error) : fallback;
    const chargeId = idOf(intent.latest_charge) ?? error?.charge ?? `${intent.id}:no-charge`;
    return new PaymentDeclinedError(code, chargeId, intent.id, intent.amount, intent.currency);
  }
}

/** The id of an expandable field, expanded or not. */
function idOf(value: string | { id: string } | null | undefined): string | undefined {
  return typeof value === 'string' ? value : (value?.id ?? undefined);
}

function methodOf(method: Stripe.PaymentMethod): PaymentMethod {
  const card = method.card;
  return { id: method.id, brand: brandOf(card?.brand), last4: card?.last4 ?? '', expMonth: card?.exp_month ?? 0, expYear: card?.exp_year ?? 0 };
}

/** The service's ledger names a Stripe payment by its PaymentIntent (the invoice) and its charge. */
function receiptOf(intent: Stripe.PaymentIntent): ChargeReceipt {
  return { invoiceId: intent.id, chargeId: idOf(intent.latest_charge) ?? intent.id };
}

/** A bank's refusal in the service's words. */
function codeOf(error: { code?: string; decline_code?: string }): DeclineCode {
  if (error.code === 'authentication_required' || error.decline_code === 'authentication_required') return 'authentication_required';
  if (error.decline_code === 'insufficient_funds') return 'insufficient_funds';
  return 'card_declined';
}

/** What a PaymentIntent and a SetupIntent say alike of how they ended. */
function outcomeOf(intent: Stripe.PaymentIntent | Stripe.SetupIntent): Pick<PaymentOutcome, 'intentId' | 'status' | 'customerId' | 'paymentMethodId' | 'metadata'> {
  const paymentMethodId = idOf(intent.payment_method);
  return {
    intentId: intent.id,
    status: intent.status === 'succeeded' ? 'succeeded' : intent.status === 'requires_action' ? 'requiresAction' : 'failed',
    customerId: idOf(intent.customer) ?? '',
    ...(paymentMethodId && { paymentMethodId }),
    metadata: { ...intent.metadata },
  };
}

/** A card refused as it is attached, or an id Stripe does not know; undefined for anything else. */
function declinedOrUnknown(error: unknown, resource: 'paymentMethod' | 'paymentIntent', id: string): Error | undefined {
  if (error instanceof stripeSdk().errors.StripeCardError) return new CardDeclinedError(codeOf(error));
  if (error instanceof stripeSdk().errors.StripeInvalidRequestError && error.code === 'resource_missing') {
    return new UnknownPaymentReferenceError(error.param === 'customer' ? 'customer' : resource, id);
  }
  return undefined;
}
