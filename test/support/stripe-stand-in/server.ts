/**
 * A Stripe stand-in for tests: an HTTP server on loopback that the real `stripe` package talks
 * to, answering the part of Stripe's API (test mode) the service uses, in Stripe's shapes, and
 * refusing what Stripe refuses. Stripe itself is unreachable from the test machines. What it
 * implements and refuses, and where it is stricter than Stripe, is in README.md; the test cards
 * are in cards.ts.
 *
 * Objects are built as the package's own types (Stripe.PaymentIntent, Stripe.Charge, …) so that
 * a field the package expects and the stand-in forgets fails the type-check rather than a test.
 */
import { randomBytes, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { STRIPE_JS } from './stripe-js';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { checkCardNumber, type TestCard } from './cards';
import { parseForm, type FormValue } from './form';

export interface StandInRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey?: string;
  key: 'secret' | 'publishable';
}

export interface StripeStandIn {
  url: string;
  secretKey: string;
  publishableKey: string;
  /** A configured client: new Stripe(secretKey, { host, port, protocol: 'http', maxNetworkRetries: 0 }) */
  client(): Stripe;
  /** Every authenticated request received, in order (a request with no valid key is not listed). */
  requests: StandInRequest[];
  /** Charges made (succeeded or failed), to assert "charged once". */
  charges(): Stripe.Charge[];
  /** Completes a PaymentIntent's or SetupIntent's pending 3-D Secure step, as the cardholder would. */
  authenticate(intentId: string, outcome: 'approve' | 'refuse'): Promise<void>;
  /** Signs and POSTs an event to a webhook URL as Stripe does, answering the receiver's status. */
  sendEvent(
    url: string,
    secret: string,
    type: string,
    object: object,
    options?: { id?: string; timestamp?: number },
  ): Promise<{ status: number; body: string; event: Stripe.Event }>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Errors, in Stripe's `{ error: { type, code, message, param, … } }` shape.

interface RawError {
  type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: Stripe.PaymentIntent;
  setup_intent?: Stripe.SetupIntent;
  payment_method?: Stripe.PaymentMethod;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly raw: RawError,
  ) {
    super(raw.message);
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;

function invalid(message: string, param?: string, code?: string): ApiError {
  return new ApiError(400, { type: 'invalid_request_error', message, param, code, doc_url: code && docUrl(code) });
}

/** Stripe answers 404 for an unknown id in the path, 400 for one given as a parameter. */
function noSuch(kind: string, id: string, param: string, inPath: boolean): ApiError {
  return new ApiError(inPath ? 404 : 400, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    doc_url: docUrl('resource_missing'),
    message: `No such ${kind}: '${id}'`,
    param,
  });
}

function cardError(code: string, message: string, param: string, decline_code?: string): ApiError {
  return new ApiError(402, { type: 'card_error', code, decline_code, message, param, doc_url: docUrl(code) });
}

// ---------------------------------------------------------------------------------------------
// Parameters: each endpoint lists what it accepts, so anything else is refused as Stripe refuses
// it ("Received unknown parameter"), and values are converted by what the parameter is.

type Spec = 'string' | 'int' | 'bool' | 'metadata' | 'expand' | readonly string[] | { readonly [k: string]: Spec };
type Params = Record<string, unknown>;

function checkParams(raw: Record<string, FormValue>, spec: { readonly [k: string]: Spec }, prefix = ''): Params {
  const out: Params = {};
  for (const [key, value] of Object.entries(raw)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    const s = spec[key];
    if (s === undefined) throw invalid(`Received unknown parameter: ${name}`, name);
    out[key] = checkValue(value, s, name);
  }
  return out;
}

function checkValue(value: FormValue, spec: Spec, name: string): unknown {
  if (Array.isArray(spec)) {
    if (typeof value !== 'string' || !spec.includes(value)) {
      throw invalid(`Invalid ${name}: must be one of ${spec.join(', ')}`, name);
    }
    return value;
  }
  switch (spec) {
    case 'string':
      if (typeof value !== 'string') throw invalid(`Invalid string: ${name}`, name);
      return value;
    case 'int':
      if (typeof value !== 'string' || !/^-?\d{1,15}$/.test(value)) throw invalid(`Invalid integer: ${String(value)}`, name);
      return Number(value);
    case 'bool':
      if (value !== 'true' && value !== 'false') throw invalid(`Invalid boolean: ${String(value)}`, name);
      return value === 'true';
    case 'expand':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw invalid('Invalid array', name);
      return value;
    case 'metadata':
      return checkMetadata(value, name);
    default:
      if (typeof value !== 'object' || Array.isArray(value)) throw invalid('Invalid object', name);
      return checkParams(value, spec as { readonly [k: string]: Spec }, name);
  }
}

// Stripe's limits: 50 keys, keys up to 40 characters, values up to 500; '' unsets.
function checkMetadata(value: FormValue, name: string): Record<string, string> {
  if (value === '') return {};
  if (typeof value !== 'object') throw invalid('Invalid object', name);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw invalid('Invalid string', `${name}[${k}]`);
    if (k.length > 40) throw invalid(`Metadata keys can have up to 40 characters, but you passed in a key that is ${k.length} characters.`, `${name}[${k}]`);
    if (v.length > 500) throw invalid(`Metadata values can have up to 500 characters, but you passed in a value that is ${v.length} characters.`, `${name}[${k}]`);
    if (v !== '') out[k] = v;
  }
  if (Object.keys(out).length > 50) throw invalid('You can specify up to 50 keys in metadata.', name);
  return out;
}

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw invalid(`Missing required param: ${name}.`, name);
  return value;
}

/** Checks `expand` against what the object can expand before anything is done. */
function expansions(expand: unknown, allowed: readonly string[]): string[] {
  const list = (expand as string[] | undefined) ?? [];
  for (const path of list) {
    if (!allowed.includes(path)) {
      throw invalid(`This property cannot be expanded (${path}). (The stand-in expands only: ${allowed.join(', ') || 'nothing'}.)`, 'expand');
    }
  }
  return list;
}

const AUTOMATIC = { enabled: 'bool', allow_redirects: ['always', 'never'] } as const;
const OFF_SESSION = ['true', 'false', 'one_off', 'recurring'] as const;
const SPECS = {
  customerCreate: { email: 'string', name: 'string', description: 'string', metadata: 'metadata', expand: 'expand' },
  retrieve: { expand: 'expand' },
  none: {},
  listPaymentMethods: { type: 'string', limit: 'int', expand: 'expand' },
  paymentMethodCreate: {
    type: 'string',
    card: { number: 'string', exp_month: 'int', exp_year: 'int', cvc: 'string' },
    billing_details: {
      name: 'string',
      email: 'string',
      phone: 'string',
      address: { line1: 'string', line2: 'string', city: 'string', state: 'string', postal_code: 'string', country: 'string' },
    },
    metadata: 'metadata',
    expand: 'expand',
  },
  attach: { customer: 'string', expand: 'expand' },
  detach: { expand: 'expand' },
  paymentIntentCreate: {
    amount: 'int',
    currency: 'string',
    customer: 'string',
    payment_method: 'string',
    confirm: 'bool',
    off_session: OFF_SESSION,
    setup_future_usage: ['on_session', 'off_session'],
    automatic_payment_methods: AUTOMATIC,
    return_url: 'string',
    description: 'string',
    metadata: 'metadata',
    expand: 'expand',
  },
  paymentIntentConfirm: {
    payment_method: 'string',
    off_session: OFF_SESSION,
    setup_future_usage: ['on_session', 'off_session'],
    return_url: 'string',
    expand: 'expand',
  },
  setupIntentCreate: {
    customer: 'string',
    payment_method: 'string',
    confirm: 'bool',
    usage: ['on_session', 'off_session'],
    automatic_payment_methods: AUTOMATIC,
    return_url: 'string',
    description: 'string',
    metadata: 'metadata',
    expand: 'expand',
  },
  setupIntentConfirm: { payment_method: 'string', return_url: 'string', expand: 'expand' },
  refundCreate: {
    payment_intent: 'string',
    charge: 'string',
    amount: 'int',
    reason: ['duplicate', 'fraudulent', 'requested_by_customer'],
    metadata: 'metadata',
    expand: 'expand',
  },
  authenticate: { outcome: ['approve', 'refuse'] },
} as const satisfies Record<string, { readonly [k: string]: Spec }>;

interface AutomaticParams {
  enabled?: boolean;
  allow_redirects?: 'always' | 'never';
}

// ---------------------------------------------------------------------------------------------
// The account's objects. Stored in Stripe's shapes with ids for references; `expanded` renders
// a copy with the references asked for in `expand` replaced by the objects.

interface MethodState {
  pm: Stripe.PaymentMethod;
  card: TestCard;
  /** Stripe refuses a PaymentMethod again once used or detached without a customer. */
  consumed: boolean;
  /** Set up for off-session use (authenticated with setup_future_usage / SetupIntent usage off_session). */
  setUpOffSession: boolean;
}

interface IntentExtras {
  /** Kept for confirming later: Stripe needs it unless redirects are off. */
  returnUrl: string | null;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let s = prefix;
  for (const b of bytes) s += ALPHANUMERIC[b % ALPHANUMERIC.length];
  return s;
}
const now = () => Math.floor(Date.now() / 1000);

// Stripe's minimum charge amounts (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts)
// for the currencies the service is likely to use; others only need a positive amount here.
const MINIMUM: Record<string, [number, string]> = { usd: [50, '$0.50'], eur: [50, '€0.50'], gbp: [30, '£0.30'] };

const REDIRECT_RULE =
  "This PaymentIntent is configured to accept payment methods enabled in your Dashboard. Because some of these payment methods might redirect your customer off of your page, you must provide a `return_url`. If you don't want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.";

class Account {
  readonly customers = new Map<string, Stripe.Customer | Stripe.DeletedCustomer>();
  readonly methods = new Map<string, MethodState>();
  readonly payments = new Map<string, { pi: Stripe.PaymentIntent } & IntentExtras>();
  readonly setups = new Map<string, { si: Stripe.SetupIntent } & IntentExtras>();
  readonly charges = new Map<string, Stripe.Charge>();
  readonly refunds = new Map<string, Stripe.Refund>();

  constructor(private readonly baseUrl: () => string) {}

  // --- lookups -------------------------------------------------------------------------------

  liveCustomer(id: string, param: string, inPath: boolean): Stripe.Customer {
    const c = this.customers.get(id);
    if (!c || c.deleted) throw noSuch('customer', id, param, inPath);
    return c;
  }

  method(id: string, param: string, inPath: boolean): MethodState {
    const m = this.methods.get(id);
    if (!m) throw noSuch('PaymentMethod', id, param, inPath);
    return m;
  }

  /** A PaymentMethod an intent may use for `customer`, as Stripe checks it. */
  usableMethod(id: string, customer: string | null): MethodState {
    const m = this.method(id, 'payment_method', false);
    if (m.consumed) {
      throw invalid(
        'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
        'payment_method',
      );
    }
    const owner = m.pm.customer as string | null;
    if (owner && owner !== customer) {
      throw invalid(
        customer
          ? `The provided PaymentMethod belongs to a different Customer (${owner}) than the one given (${customer}).`
          : `The provided PaymentMethod is attached to a Customer (${owner}). Provide that customer to use it.`,
        'payment_method',
      );
    }
    return m;
  }

  expanded<T extends object>(obj: T, expand: string[]): T {
    const copy = structuredClone(obj) as Record<string, unknown>;
    for (const path of expand) {
      const id = copy[path];
      if (typeof id !== 'string') continue;
      const found =
        this.charges.get(id) ??
        this.methods.get(id)?.pm ??
        this.customers.get(id) ??
        this.payments.get(id)?.pi ??
        this.refunds.get(id);
      if (found) copy[path] = structuredClone(found);
    }
    return copy as T;
  }

  // --- customers -----------------------------------------------------------------------------

  /** What Stripe.js's handleNextAction is told to do for a 3-D Secure step: here, the stand-in's own page. */
  threeDSecureStep(intentId: string): Stripe.PaymentIntent.NextAction & Stripe.SetupIntent.NextAction {
    return {
      type: 'use_stripe_sdk',
      use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `${this.baseUrl()}/_stand-in/intents/${intentId}/authenticate`, source: randomId('src_') },
    };
  }

  createCustomer(p: Params): Stripe.Customer {
    expansions(p.expand, []);
    const customer: Stripe.Customer = {
      id: randomId('cus_', 14),
      object: 'customer',
      address: null,
      balance: 0,
      created: now(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: (p.description as string | undefined) ?? null,
      discount: null,
      email: (p.email as string | undefined) ?? null,
      invoice_prefix: randomId('', 8).toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: (p.metadata as Record<string, string> | undefined) ?? {},
      name: (p.name as string | undefined) ?? null,
      next_invoice_sequence: 1,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  /** A deleted customer is still retrievable, as `{ id, object, deleted: true }` (Stripe's DeletedCustomer). */
  retrieveCustomer(id: string, p: Params): Stripe.Customer | Stripe.DeletedCustomer {
    expansions(p.expand, []);
    const c = this.customers.get(id);
    if (!c) throw noSuch('customer', id, 'id', true);
    return c;
  }

  deleteCustomer(id: string): Stripe.DeletedCustomer {
    this.liveCustomer(id, 'id', true);
    const deleted: Stripe.DeletedCustomer = { id, object: 'customer', deleted: true };
    this.customers.set(id, deleted);
    // Stripe detaches a deleted customer's payment methods; a detached one cannot be used again.
    for (const m of this.methods.values()) {
      if (m.pm.customer !== id) continue;
      m.pm.customer = null;
      m.consumed = true;
    }
    return deleted;
  }

  listMethods(id: string, p: Params): Stripe.ApiList<Stripe.PaymentMethod> {
    const expand = expansions(p.expand, []);
    this.liveCustomer(id, 'customer', true);
    const limit = (p.limit as number | undefined) ?? 10;
    if (limit < 1 || limit > 100) throw invalid('This value must be between 1 and 100.', 'limit');
    const all = [...this.methods.values()]
      .filter((m) => m.pm.customer === id && (p.type === undefined || m.pm.type === p.type))
      .reverse(); // newest first, as Stripe lists
    return {
      object: 'list',
      data: all.slice(0, limit).map((m) => this.expanded(m.pm, expand)),
      has_more: all.length > limit,
      url: `/v1/customers/${id}/payment_methods`,
    };
  }

  // --- payment methods -----------------------------------------------------------------------

  createMethod(p: Params, key: 'secret' | 'publishable'): Stripe.PaymentMethod {
    expansions(p.expand, []);
    const type = required(p.type as string | undefined, 'type');
    if (type !== 'card') throw invalid(`The stand-in implements only type=card, not ${type}.`, 'type');
    const c = required(p.card as { number?: string; exp_month?: number; exp_year?: number; cvc?: string } | undefined, 'card');
    const number = required(c.number, 'card[number]');
    const expMonth = required(c.exp_month, 'card[exp_month]');
    let expYear = required(c.exp_year, 'card[exp_year]');
    // Stripe refuses raw card numbers from a server in test mode too, unless the account was
    // allowed to; cards come from the browser, with the publishable key (Stripe.js).
    if (key === 'secret') {
      throw invalid(
        'Sending credit card numbers directly to the Stripe API is generally unsafe. We suggest you use test tokens that map to the test card you are using, see https://stripe.com/docs/testing. To enable testing raw card data APIs, see https://support.stripe.com/questions/enabling-access-to-raw-card-data-apis.',
      );
    }
    const check = checkCardNumber(number);
    if (!check.ok) throw cardError(check.code, check.message, 'number', 'decline_code' in check ? check.decline_code : undefined);
    if (expYear < 100) expYear += 2000;
    const today = new Date();
    if (expMonth < 1 || expMonth > 12) throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", 'exp_month');
    if (expYear < today.getUTCFullYear() || expYear > today.getUTCFullYear() + 50) {
      throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", 'exp_year');
    }
    if (expYear === today.getUTCFullYear() && expMonth < today.getUTCMonth() + 1) {
      throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", 'exp_month');
    }
    if (c.cvc !== undefined && !/^\d{3,4}$/.test(c.cvc)) throw cardError('invalid_cvc', "Your card's security code is invalid.", 'cvc');
    const billing = (p.billing_details ?? {}) as { name?: string; email?: string; phone?: string; address?: Record<string, string> };
    const brand = check.card.brand;
    const pm: Stripe.PaymentMethod = {
      id: randomId('pm_'),
      object: 'payment_method',
      allow_redisplay: 'unspecified',
      billing_details: {
        address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null, ...billing.address },
        email: billing.email ?? null,
        name: billing.name ?? null,
        phone: billing.phone ?? null,
        tax_id: null,
      },
      card: {
        brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: c.cvc ? 'unchecked' : null },
        country: 'US',
        display_brand: brand,
        exp_month: expMonth,
        exp_year: expYear,
        // Stripe's fingerprint is the same for the same number within an account.
        fingerprint: createHash('sha256').update(number).digest('base64url').slice(0, 16),
        funding: 'credit',
        generated_from: null,
        last4: number.slice(-4),
        networks: { available: [brand], preferred: null },
        regulated_status: 'unregulated',
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      created: now(),
      customer: null,
      customer_account: null,
      livemode: false,
      metadata: (p.metadata as Record<string, string> | undefined) ?? {},
      type: 'card',
    };
    this.methods.set(pm.id, { pm, card: check.card, consumed: false, setUpOffSession: false });
    return pm;
  }

  attachMethod(id: string, p: Params): Stripe.PaymentMethod {
    const expand = expansions(p.expand, ['customer']);
    const m = this.method(id, 'payment_method', true);
    const customer = this.liveCustomer(required(p.customer as string | undefined, 'customer'), 'customer', false);
    if (m.consumed) {
      throw invalid(
        'This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
      );
    }
    if (m.pm.customer && m.pm.customer !== customer.id) {
      throw invalid('The payment method you provided has already been attached to a customer.');
    }
    // Attaching verifies the card with its bank: a declining card never reaches the customer.
    if (m.card.onAttach !== 'ok') {
      throw cardError('card_declined', m.card.onAttach.message, '', m.card.onAttach.decline_code);
    }
    m.pm.customer = customer.id;
    if (m.pm.card?.checks?.cvc_check === 'unchecked') m.pm.card.checks.cvc_check = 'pass';
    return this.expanded(m.pm, expand);
  }

  detachMethod(id: string, p: Params): Stripe.PaymentMethod {
    const expand = expansions(p.expand, []);
    const m = this.method(id, 'payment_method', true);
    if (!m.pm.customer) {
      throw invalid('The payment method you provided is not attached to a customer so detachment is impossible.');
    }
    m.pm.customer = null;
    m.consumed = true;
    return this.expanded(m.pm, expand);
  }

  retrieveMethod(id: string, p: Params): Stripe.PaymentMethod {
    return this.expanded(this.method(id, 'payment_method', true).pm, expansions(p.expand, ['customer']));
  }

  // --- payment intents -----------------------------------------------------------------------

  createPayment(p: Params): Stripe.PaymentIntent {
    const expand = expansions(p.expand, ['latest_charge', 'payment_method', 'customer']);
    const amount = required(p.amount as number | undefined, 'amount');
    const currency = required(p.currency as string | undefined, 'currency').toLowerCase();
    if (!/^[a-z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${currency}.`, 'currency');
    if (amount < 1) throw invalid('This value must be greater than or equal to 1.', 'amount');
    const min = MINIMUM[currency];
    if (min && amount < min[0]) throw invalid(`Amount must be at least ${min[1]} ${currency}`, 'amount', 'amount_too_small');
    if (amount > 99_999_999) throw invalid('Amount must be no more than 99999999 (minor units).', 'amount', 'amount_too_large');
    const automatic = automaticMethods(p.automatic_payment_methods);
    const customer = p.customer === undefined ? null : this.liveCustomer(p.customer as string, 'customer', false).id;
    const confirm = p.confirm === true;
    const offSession = isOffSession(p.off_session);
    if (offSession && !confirm) throw invalid('You can only set `off_session` when `confirm` is true.', 'off_session');
    const pmId = p.payment_method as string | undefined;
    if (pmId !== undefined) this.usableMethod(pmId, customer);
    if (confirm) {
      if (pmId === undefined) throw missingMethod();
      if (automatic.allow_redirects !== 'never' && p.return_url === undefined) throw invalid(REDIRECT_RULE);
    }
    const id = randomId('pi_');
    const pi: Stripe.PaymentIntent = {
      id,
      object: 'payment_intent',
      allowed_payment_method_types: null,
      amount,
      amount_capturable: 0,
      amount_received: 0,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods: automatic,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic_async',
      client_secret: `${id}_secret_${randomId('', 25)}`,
      confirmation_method: 'automatic',
      created: now(),
      currency,
      customer,
      customer_account: null,
      description: (p.description as string | undefined) ?? null,
      excluded_payment_method_types: null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      managed_payments: null,
      metadata: (p.metadata as Record<string, string> | undefined) ?? {},
      next_action: null,
      on_behalf_of: null,
      payment_method: pmId ?? null,
      payment_method_configuration_details: null,
      payment_method_options: null,
      payment_method_types: ['card'],
      payment_record: null,
      processing: null,
      receipt_email: null,
      review: null,
      setup_future_usage: (p.setup_future_usage as 'on_session' | 'off_session' | undefined) ?? null,
      shipping: null,
      source: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: pmId ? 'requires_confirmation' : 'requires_payment_method',
      transfer_data: null,
      transfer_group: null,
    };
    const state = { pi, returnUrl: (p.return_url as string | undefined) ?? null };
    this.payments.set(id, state);
    if (confirm) this.confirmPayment(state, offSession, expand);
    return this.expanded(pi, expand);
  }

  retrievePayment(id: string, p: Params): Stripe.PaymentIntent {
    const state = this.payments.get(id);
    if (!state) throw noSuch('payment_intent', id, 'intent', true);
    return this.expanded(state.pi, expansions(p.expand, ['latest_charge', 'payment_method', 'customer']));
  }

  confirmPaymentRequest(id: string, p: Params): Stripe.PaymentIntent {
    const expand = expansions(p.expand, ['latest_charge', 'payment_method', 'customer']);
    const state = this.payments.get(id);
    if (!state) throw noSuch('payment_intent', id, 'intent', true);
    const { pi } = state;
    if (pi.status !== 'requires_confirmation' && pi.status !== 'requires_payment_method') {
      throw invalid(
        pi.status === 'succeeded'
          ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
          : `You cannot confirm this PaymentIntent because it has a status of ${pi.status}.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    }
    const pmId = (p.payment_method as string | undefined) ?? (pi.payment_method as string | null);
    if (!pmId) throw missingMethod();
    this.usableMethod(pmId, pi.customer as string | null);
    const returnUrl = (p.return_url as string | undefined) ?? state.returnUrl;
    if (pi.automatic_payment_methods?.allow_redirects !== 'never' && !returnUrl) throw invalid(REDIRECT_RULE);
    state.returnUrl = returnUrl;
    pi.payment_method = pmId;
    if (p.setup_future_usage !== undefined) pi.setup_future_usage = p.setup_future_usage as 'on_session' | 'off_session';
    this.confirmPayment(state, isOffSession(p.off_session), expand);
    return this.expanded(pi, expand);
  }

  /** Confirms with the card: a 3-D Secure step, a decline (thrown as Stripe's 402), or a charge. */
  private confirmPayment(state: { pi: Stripe.PaymentIntent } & IntentExtras, offSession: boolean, expand: string[]): void {
    const { pi } = state;
    const m = this.method(pi.payment_method as string, 'payment_method', false);
    pi.last_payment_error = null;
    const asks = m.card.threeDSecure === 'always' || (m.card.threeDSecure === 'unless_set_up' && !(offSession && m.setUpOffSession));
    if (asks && offSession) {
      // Nobody is there to authenticate: the bank's soft decline, with a failed charge.
      const charge = this.recordCharge(pi, m, {
        failure_code: 'authentication_required',
        decline_code: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
      });
      this.failPayment(state, m, {
        type: 'card_error',
        code: 'authentication_required',
        decline_code: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
        charge: charge.id,
      });
      throw this.paymentError(pi, m, expand);
    }
    if (asks) {
      pi.status = 'requires_action';
      pi.next_action = this.threeDSecureStep(pi.id);
      return;
    }
    this.chargePayment(state, m, expand, false);
  }

  private chargePayment(state: { pi: Stripe.PaymentIntent } & IntentExtras, m: MethodState, expand: string[], authenticated: boolean): void {
    const { pi } = state;
    pi.next_action = null;
    if (m.card.onCharge !== 'ok') {
      const charge = this.recordCharge(pi, m, { failure_code: 'card_declined', ...m.card.onCharge }, authenticated);
      this.failPayment(state, m, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: m.card.onCharge.decline_code,
        message: m.card.onCharge.message,
        charge: charge.id,
      });
      throw this.paymentError(pi, m, expand);
    }
    this.recordCharge(pi, m, 'ok', authenticated);
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    // With setup_future_usage Stripe attaches the card to the customer and keeps it set up.
    if (pi.setup_future_usage && pi.customer) m.pm.customer = pi.customer as string;
    if (pi.setup_future_usage === 'off_session') m.setUpOffSession = true;
    if (!m.pm.customer && !pi.setup_future_usage) m.consumed = true;
  }

  /** Stripe leaves a failed PaymentIntent waiting for a new payment method, the old one in the error. */
  private failPayment(
    state: { pi: Stripe.PaymentIntent } & IntentExtras,
    m: MethodState,
    error: Omit<Stripe.PaymentIntent.LastPaymentError, 'payment_method'>,
  ): void {
    const { pi } = state;
    pi.status = 'requires_payment_method';
    pi.next_action = null;
    pi.payment_method = null;
    pi.last_payment_error = { ...error, doc_url: error.code && docUrl(error.code), payment_method: structuredClone(m.pm) };
    if (!m.pm.customer) m.consumed = true;
  }

  private paymentError(pi: Stripe.PaymentIntent, m: MethodState, expand: string[]): ApiError {
    const e = pi.last_payment_error!;
    return new ApiError(402, {
      type: 'card_error',
      code: e.code,
      decline_code: e.decline_code,
      message: e.message ?? '',
      charge: e.charge,
      doc_url: e.doc_url,
      payment_intent: this.expanded(pi, expand),
      payment_method: structuredClone(m.pm),
    });
  }

  private recordCharge(
    pi: Stripe.PaymentIntent,
    m: MethodState,
    result: 'ok' | { failure_code: 'card_declined' | 'authentication_required'; decline_code: string; message: string },
    threeDSecure = false,
  ): Stripe.Charge {
    const ok = result === 'ok';
    const card = m.pm.card!;
    const charge: Stripe.Charge = {
      id: randomId('ch_'),
      object: 'charge',
      amount: pi.amount,
      amount_captured: ok ? pi.amount : 0,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: ok ? randomId('txn_') : null,
      billing_details: structuredClone(m.pm.billing_details),
      calculated_statement_descriptor: 'STAND-IN',
      captured: ok,
      created: now(),
      currency: pi.currency,
      customer: pi.customer as string | null,
      description: pi.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: ok ? null : result.failure_code,
      failure_message: ok ? null : result.message,
      fraud_details: {},
      livemode: false,
      metadata: {},
      on_behalf_of: null,
      outcome: {
        advice_code: null,
        network_advice_code: null,
        network_decline_code: null,
        network_status: ok ? 'approved_by_network' : 'declined_by_network',
        reason: ok ? null : result.decline_code,
        risk_level: 'normal',
        seller_message: ok ? 'Payment complete.' : `The bank returned the decline code \`${result.decline_code}\`.`,
        type: ok ? 'authorized' : 'issuer_declined',
      },
      paid: ok,
      payment_intent: pi.id,
      payment_method: m.pm.id,
      payment_method_details: {
        type: 'card',
        card: {
          amount_authorized: ok ? pi.amount : null,
          authorization_code: ok ? randomId('', 6) : null,
          brand: card.brand,
          checks: structuredClone(card.checks),
          country: card.country,
          electronic_commerce_indicator: null,
          exp_month: card.exp_month,
          exp_year: card.exp_year,
          fingerprint: card.fingerprint ?? null,
          funding: card.funding,
          installments: null,
          last4: card.last4,
          mandate: null,
          network: card.brand,
          network_transaction_id: ok ? randomId('', 15) : null,
          regulated_status: card.regulated_status,
          three_d_secure: threeDSecure
            ? {
                authentication_flow: 'challenge',
                electronic_commerce_indicator: '05',
                exemption_indicator: null,
                result: 'authenticated',
                result_reason: null,
                transaction_id: randomId(''),
                version: '2.2.0',
              }
            : null,
          transaction_link_id: null,
          wallet: null,
        },
      },
      receipt_email: null,
      receipt_number: null,
      receipt_url: null,
      refunded: false,
      review: null,
      shipping: null,
      source: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: ok ? 'succeeded' : 'failed',
      transfer_data: null,
      transfer_group: null,
    };
    this.charges.set(charge.id, charge);
    pi.latest_charge = charge.id;
    return charge;
  }

  retrieveCharge(id: string, p: Params): Stripe.Charge {
    const expand = expansions(p.expand, ['payment_intent', 'customer']);
    const charge = this.charges.get(id);
    if (!charge) throw noSuch('charge', id, 'id', true);
    return this.expanded(charge, expand);
  }

  // --- setup intents -------------------------------------------------------------------------

  createSetup(p: Params): Stripe.SetupIntent {
    const expand = expansions(p.expand, ['payment_method', 'customer']);
    const automatic = automaticMethods(p.automatic_payment_methods);
    const customer = p.customer === undefined ? null : this.liveCustomer(p.customer as string, 'customer', false).id;
    const pmId = p.payment_method as string | undefined;
    if (pmId !== undefined) this.usableMethod(pmId, customer);
    const confirm = p.confirm === true;
    if (confirm) {
      if (pmId === undefined) throw invalid('You cannot confirm this SetupIntent because it\'s missing a payment method.', 'payment_method');
      if (automatic.allow_redirects !== 'never' && p.return_url === undefined) throw invalid(REDIRECT_RULE);
    }
    const id = randomId('seti_');
    const si: Stripe.SetupIntent = {
      id,
      object: 'setup_intent',
      allowed_payment_method_types: null,
      application: null,
      automatic_payment_methods: automatic,
      cancellation_reason: null,
      client_secret: `${id}_secret_${randomId('', 32)}`,
      created: now(),
      customer,
      description: (p.description as string | undefined) ?? null,
      excluded_payment_method_types: null,
      flow_directions: null,
      last_setup_error: null,
      latest_attempt: null,
      livemode: false,
      mandate: null,
      metadata: (p.metadata as Record<string, string> | undefined) ?? {},
      next_action: null,
      on_behalf_of: null,
      payment_method: pmId ?? null,
      payment_method_configuration_details: null,
      payment_method_options: null,
      payment_method_types: ['card'],
      single_use_mandate: null,
      status: pmId ? 'requires_confirmation' : 'requires_payment_method',
      usage: (p.usage as string | undefined) ?? 'off_session',
    };
    const state = { si, returnUrl: (p.return_url as string | undefined) ?? null };
    this.setups.set(id, state);
    if (confirm) this.confirmSetup(state, expand);
    return this.expanded(si, expand);
  }

  retrieveSetup(id: string, p: Params): Stripe.SetupIntent {
    const state = this.setups.get(id);
    if (!state) throw noSuch('setupintent', id, 'intent', true);
    return this.expanded(state.si, expansions(p.expand, ['payment_method', 'customer']));
  }

  confirmSetupRequest(id: string, p: Params): Stripe.SetupIntent {
    const expand = expansions(p.expand, ['payment_method', 'customer']);
    const state = this.setups.get(id);
    if (!state) throw noSuch('setupintent', id, 'intent', true);
    const { si } = state;
    if (si.status !== 'requires_confirmation' && si.status !== 'requires_payment_method') {
      throw invalid(`You cannot confirm this SetupIntent because it has a status of ${si.status}.`, undefined, 'setup_intent_unexpected_state');
    }
    const pmId = (p.payment_method as string | undefined) ?? (si.payment_method as string | null);
    if (!pmId) throw invalid("You cannot confirm this SetupIntent because it's missing a payment method.", 'payment_method');
    this.usableMethod(pmId, si.customer as string | null);
    const returnUrl = (p.return_url as string | undefined) ?? state.returnUrl;
    if (si.automatic_payment_methods?.allow_redirects !== 'never' && !returnUrl) throw invalid(REDIRECT_RULE);
    state.returnUrl = returnUrl;
    si.payment_method = pmId;
    this.confirmSetup(state, expand);
    return this.expanded(si, expand);
  }

  /** Setting a card up checks it with the bank like attaching, and always asks 3-D Secure cards. */
  private confirmSetup(state: { si: Stripe.SetupIntent } & IntentExtras, expand: string[]): void {
    const { si } = state;
    const m = this.method(si.payment_method as string, 'payment_method', false);
    si.last_setup_error = null;
    if (m.card.onAttach !== 'ok') {
      const decline = m.card.onAttach;
      this.failSetup(si, m, { type: 'card_error', code: 'card_declined', decline_code: decline.decline_code, message: decline.message });
      throw new ApiError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: decline.decline_code,
        message: decline.message,
        doc_url: docUrl('card_declined'),
        setup_intent: this.expanded(si, expand),
        payment_method: structuredClone(m.pm),
      });
    }
    if (m.card.threeDSecure !== 'none') {
      si.status = 'requires_action';
      si.next_action = this.threeDSecureStep(si.id);
      return;
    }
    this.succeedSetup(si, m);
  }

  private succeedSetup(si: Stripe.SetupIntent, m: MethodState): void {
    si.status = 'succeeded';
    si.next_action = null;
    if (si.customer) m.pm.customer = si.customer as string;
    if (si.usage === 'off_session') m.setUpOffSession = true;
  }

  private failSetup(si: Stripe.SetupIntent, m: MethodState, error: Omit<Stripe.SetupIntent.LastSetupError, 'payment_method'>): void {
    si.status = 'requires_payment_method';
    si.next_action = null;
    si.payment_method = null;
    si.last_setup_error = { ...error, doc_url: error.code && docUrl(error.code), payment_method: structuredClone(m.pm) };
  }

  // --- 3-D Secure ----------------------------------------------------------------------------

  authenticate(id: string, outcome: 'approve' | 'refuse'): Stripe.PaymentIntent | Stripe.SetupIntent {
    const payment = this.payments.get(id);
    const setup = this.setups.get(id);
    const status = payment?.pi.status ?? setup?.si.status;
    if (!status) throw noSuch('intent', id, 'intent', true);
    if (status !== 'requires_action') throw invalid(`${id} has no 3-D Secure step waiting (status ${status}).`, undefined, 'payment_intent_unexpected_state');
    if (payment) {
      const m = this.method(payment.pi.payment_method as string, 'payment_method', false);
      if (outcome === 'refuse') {
        this.failPayment(payment, m, {
          type: 'invalid_request_error',
          code: 'payment_intent_authentication_failure',
          message:
            'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
        });
        return structuredClone(payment.pi);
      }
      try {
        this.chargePayment(payment, m, [], true);
      } catch (e) {
        // A decline after authentication is the intent's state, not this call's failure.
        if (!(e instanceof ApiError)) throw e;
      }
      return structuredClone(payment.pi);
    }
    const si = setup!.si;
    const m = this.method(si.payment_method as string, 'payment_method', false);
    if (outcome === 'refuse') {
      this.failSetup(si, m, {
        type: 'invalid_request_error',
        code: 'setup_intent_authentication_failure',
        message: 'The latest attempt to set up the payment method has failed because authentication failed.',
      });
    } else {
      this.succeedSetup(si, m);
    }
    return structuredClone(si);
  }

  // --- refunds -------------------------------------------------------------------------------

  createRefund(p: Params): Stripe.Refund {
    const expand = expansions(p.expand, ['charge', 'payment_intent']);
    if ((p.charge === undefined) === (p.payment_intent === undefined)) {
      throw invalid('Provide exactly one of these parameters: charge, payment_intent.');
    }
    let charge: Stripe.Charge | undefined;
    if (p.payment_intent !== undefined) {
      const state = this.payments.get(p.payment_intent as string);
      if (!state) throw noSuch('payment_intent', p.payment_intent as string, 'payment_intent', false);
      charge = this.charges.get(state.pi.latest_charge as string);
      if (!charge || charge.status !== 'succeeded') {
        throw invalid('This PaymentIntent does not have a successful charge to refund.', 'payment_intent');
      }
    } else {
      charge = this.charges.get(p.charge as string);
      if (!charge) throw noSuch('charge', p.charge as string, 'charge', false);
      if (charge.status !== 'succeeded') throw invalid(`Charge ${charge.id} did not succeed; there is nothing to refund.`, 'charge');
    }
    const left = charge.amount - charge.amount_refunded;
    if (left === 0) throw invalid(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    const amount = (p.amount as number | undefined) ?? left;
    if (amount < 1) throw invalid('This value must be greater than or equal to 1.', 'amount');
    if (amount > left) {
      throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, 'amount', 'amount_too_large');
    }
    const refund: Stripe.Refund = {
      id: randomId('re_'),
      object: 'refund',
      amount,
      balance_transaction: randomId('txn_'),
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      customer: charge.customer,
      customer_account: null,
      metadata: (p.metadata as Record<string, string> | undefined) ?? {},
      payment_intent: charge.payment_intent as string | null,
      payment_method: charge.payment_method,
      reason: (p.reason as Stripe.Refund.Reason | undefined) ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.refunds.set(refund.id, refund);
    return this.expanded(refund, expand);
  }
}

function automaticMethods(value: unknown): Stripe.PaymentIntent.AutomaticPaymentMethods {
  // Since API version 2023-08-16 automatic payment methods are on when nothing is said.
  if (value === undefined) return { enabled: true, allow_redirects: 'always' };
  const a = value as AutomaticParams;
  const enabled = required(a.enabled, 'automatic_payment_methods[enabled]');
  if (!enabled) {
    // Stripe would fall back to payment_method_types, which the stand-in refuses on purpose.
    throw invalid('The stand-in requires automatic_payment_methods[enabled]=true.', 'automatic_payment_methods[enabled]');
  }
  return { enabled, allow_redirects: a.allow_redirects ?? 'always' };
}

function isOffSession(value: unknown): boolean {
  return value !== undefined && value !== 'false';
}

function missingMethod(): ApiError {
  return invalid(
    "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent, specify a payment method attached to the customer along with the customer ID.",
    'payment_method',
    'payment_intent_unexpected_state',
  );
}

// ---------------------------------------------------------------------------------------------
// Routes. `publishable`: the publishable key may call it too (what Stripe.js calls).

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: RegExp;
  spec: { readonly [k: string]: Spec };
  publishable?: boolean;
  run(account: Account, params: Params, id: string, key: 'secret' | 'publishable'): object;
}

const ID = '([A-Za-z0-9_]+)';
const ROUTES: Route[] = [
  { method: 'POST', path: /^\/v1\/customers$/, spec: SPECS.customerCreate, run: (a, p) => a.createCustomer(p) },
  { method: 'GET', path: new RegExp(`^/v1/customers/${ID}$`), spec: SPECS.retrieve, run: (a, p, id) => a.retrieveCustomer(id, p) },
  { method: 'DELETE', path: new RegExp(`^/v1/customers/${ID}$`), spec: SPECS.none, run: (a, _p, id) => a.deleteCustomer(id) },
  { method: 'GET', path: new RegExp(`^/v1/customers/${ID}/payment_methods$`), spec: SPECS.listPaymentMethods, run: (a, p, id) => a.listMethods(id, p) },
  { method: 'POST', path: /^\/v1\/payment_methods$/, spec: SPECS.paymentMethodCreate, publishable: true, run: (a, p, _id, key) => a.createMethod(p, key) },
  { method: 'GET', path: new RegExp(`^/v1/payment_methods/${ID}$`), spec: SPECS.retrieve, run: (a, p, id) => a.retrieveMethod(id, p) },
  { method: 'POST', path: new RegExp(`^/v1/payment_methods/${ID}/attach$`), spec: SPECS.attach, run: (a, p, id) => a.attachMethod(id, p) },
  { method: 'POST', path: new RegExp(`^/v1/payment_methods/${ID}/detach$`), spec: SPECS.detach, run: (a, p, id) => a.detachMethod(id, p) },
  { method: 'POST', path: /^\/v1\/payment_intents$/, spec: SPECS.paymentIntentCreate, run: (a, p) => a.createPayment(p) },
  { method: 'GET', path: new RegExp(`^/v1/payment_intents/${ID}$`), spec: SPECS.retrieve, run: (a, p, id) => a.retrievePayment(id, p) },
  { method: 'POST', path: new RegExp(`^/v1/payment_intents/${ID}/confirm$`), spec: SPECS.paymentIntentConfirm, run: (a, p, id) => a.confirmPaymentRequest(id, p) },
  { method: 'POST', path: /^\/v1\/setup_intents$/, spec: SPECS.setupIntentCreate, run: (a, p) => a.createSetup(p) },
  { method: 'GET', path: new RegExp(`^/v1/setup_intents/${ID}$`), spec: SPECS.retrieve, run: (a, p, id) => a.retrieveSetup(id, p) },
  { method: 'POST', path: new RegExp(`^/v1/setup_intents/${ID}/confirm$`), spec: SPECS.setupIntentConfirm, run: (a, p, id) => a.confirmSetupRequest(id, p) },
  { method: 'GET', path: new RegExp(`^/v1/charges/${ID}$`), spec: SPECS.retrieve, run: (a, p, id) => a.retrieveCharge(id, p) },
  { method: 'POST', path: /^\/v1\/refunds$/, spec: SPECS.refundCreate, run: (a, p) => a.createRefund(p) },
  {
    method: 'POST',
    path: new RegExp(`^/_stand-in/intents/${ID}/authenticate$`),
    spec: SPECS.authenticate,
    publishable: true,
    run: (a, p, id) => a.authenticate(id, required(p.outcome as 'approve' | 'refuse' | undefined, 'outcome')),
  },
];

// ---------------------------------------------------------------------------------------------
// HTTP: authentication, version, idempotency, then the route.

interface Answer {
  status: number;
  body: string;
  /** application/json unless said (the stand-in's Stripe.js is JavaScript). */
  contentType?: string;
  replayed?: boolean;
}

interface Stored {
  method: string;
  path: string;
  params: string;
  answer: Answer;
}

const json = (status: number, body: object): Answer => ({ status, body: JSON.stringify(body, null, 2) });
const errorAnswer = (e: ApiError): Answer => json(e.status, { error: e.raw });

/** Stripe shows only the start and the last four characters of a key it refused. */
function redact(key: string): string {
  return key.length > 12 ? key.slice(0, 8) + '*'.repeat(key.length - 12) + key.slice(-4) : '*'.repeat(key.length);
}

/** Parameters compare equal whatever order they were sent in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1 << 20) throw invalid('Request body too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeStandIn(options: { secretKey?: string; publishableKey?: string } = {}): Promise<StripeStandIn> {
  const secretKey = options.secretKey ?? randomId('sk_test_standin_');
  const publishableKey = options.publishableKey ?? randomId('pk_test_standin_');
  let url = '';
  const account = new Account(() => url);
  const requests: StandInRequest[] = [];
  // Keyed by API key and Idempotency-Key: keys of one account never meet another's.
  const idempotent = new Map<string, Stored>();

  async function answer(req: IncomingMessage): Promise<{ answer: Answer; version?: string }> {
    const method = req.method ?? 'GET';
    const target = new URL(req.url ?? '/', 'http://stand-in');
    const path = target.pathname;
    const body = await readBody(req);
    if (method === 'GET' && path === '/v3/') return { answer: { status: 200, body: STRIPE_JS, contentType: 'text/javascript; charset=utf-8' } };

    // Stripe.js sends its publishable key as the form's `key` (no header: no CORS preflight).
    const formKey = method === 'POST' && !req.headers.authorization ? new URLSearchParams(body).get('key') : null;
    const auth = formKey ? ([`Bearer ${formKey}`, formKey] as const) : /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    if (!auth) {
      return {
        answer: errorAnswer(
          new ApiError(401, {
            type: 'invalid_request_error',
            message:
              "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
          }),
        ),
      };
    }
    const key = auth[1] === secretKey ? 'secret' : auth[1] === publishableKey ? 'publishable' : null;
    if (!key) {
      return { answer: errorAnswer(new ApiError(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${redact(auth[1]!)}` })) };
    }

    let match: { route: Route; id: string } | undefined;
    for (const route of ROUTES) {
      const m = route.path.exec(path);
      if (m && route.method === method) match = { route, id: m[1] ?? '' };
    }
    if (!match) {
      return {
        answer: errorAnswer(
          new ApiError(404, {
            type: 'invalid_request_error',
            message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/. (The stand-in implements only what README.md lists.)`,
          }),
        ),
      };
    }
    if (key === 'publishable' && !match.route.publishable) {
      return {
        answer: errorAnswer(
          new ApiError(401, {
            type: 'invalid_request_error',
            message:
              'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
          }),
        ),
      };
    }
    // A package upgrade that moves the pinned version must be matched here, on purpose.
    const version = req.headers['stripe-version'] as string | undefined;
    if (key === 'secret' && version !== undefined && version !== Stripe.API_VERSION) {
      return { answer: errorAnswer(invalid(`The stand-in speaks Stripe-Version ${Stripe.API_VERSION} only; this request asked for ${version}.`)), version };
    }
    if (req.headers['stripe-account'] !== undefined) {
      return { answer: errorAnswer(invalid('The stand-in does not implement Connect (Stripe-Account).')), version };
    }

    let raw: Record<string, FormValue>;
    try {
      if (method === 'POST') {
        const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
        if (type === 'application/json' && path.startsWith('/_stand-in/')) raw = JSON.parse(body || '{}') as Record<string, FormValue>;
        else if (type === 'application/x-www-form-urlencoded' || body === '') raw = parseForm(body);
        else if (formKey && type === 'text/plain') raw = parseForm(body);
        else throw invalid(`Invalid request: unsupported Content-Type ${type}. If error persists and you need assistance, please contact support@stripe.com.`);
      } else {
        raw = parseForm(target.search.slice(1));
      }
    } catch (e) {
      if (e instanceof ApiError) return { answer: errorAnswer(e), version };
      return { answer: errorAnswer(invalid(e instanceof Error ? e.message : String(e))), version };
    }
    if (formKey) delete raw.key;

    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    requests.push({ method, path, params: raw, key, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) });

    // Only POSTs are idempotent at Stripe; keys on GET and DELETE have no effect.
    const slot = method === 'POST' && idempotencyKey !== undefined ? `${auth[1]}\u0000${idempotencyKey}` : undefined;
    const params = canonical(raw);
    const stored = slot !== undefined ? idempotent.get(slot) : undefined;
    if (stored) {
      if (stored.method !== method || stored.path !== path) {
        return {
          answer: json(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${stored.method} ${stored.path}' vs '${method} ${path}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          }),
          version,
        };
      }
      if (stored.params !== params) {
        return {
          answer: json(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          }),
          version,
        };
      }
      return { answer: { ...stored.answer, replayed: true }, version };
    }

    let result: Answer;
    try {
      const p = checkParams(raw, match.route.spec);
      result = json(200, match.route.run(account, p, match.id, key));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      result = errorAnswer(e);
    }
    // Stripe saves a result only once the endpoint ran: not for requests refused as invalid (400).
    if (slot !== undefined && result.status !== 400) idempotent.set(slot, { method, path, params, answer: result });
    return { answer: result, version };
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    answer(req).then(
      ({ answer: a, version }) => send(res, a, version, req.headers['idempotency-key'] as string | undefined),
      (e: unknown) => send(res, json(500, { error: { type: 'api_error', message: `Stand-in failure: ${String(e)}` } }), undefined, undefined),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    secretKey,
    publishableKey,
    requests,
    client: () => new Stripe(secretKey, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 }),
    charges: () => [...account.charges.values()].map((c) => structuredClone(c)),
    async authenticate(intentId, outcome) {
      try {
        account.authenticate(intentId, outcome);
      } catch (e) {
        throw e instanceof ApiError ? new Error(e.message) : e;
      }
    },
    async sendEvent(target, secret, type, object, opts = {}) {
      const timestamp = opts.timestamp ?? now();
      const event = {
        id: opts.id ?? randomId('evt_'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: timestamp,
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      } as Stripe.Event;
      const payload = JSON.stringify(event, null, 2);
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
      const res = await fetch(target, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Stripe-Signature': signature,
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
      });
      return { status: res.status, body: await res.text(), event };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // The package keeps connections alive; close them or close() waits for their timeout.
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, a: Answer, version: string | undefined, idempotencyKey: string | undefined): void {
  res.statusCode = a.status;
  res.setHeader('Content-Type', a.contentType ?? 'application/json');
  // Stripe.js calls the API from the page: any origin may read the answers, as at Stripe.
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Request-Id', randomId('req_', 14));
  res.setHeader('Stripe-Version', version ?? Stripe.API_VERSION);
  if (idempotencyKey !== undefined) res.setHeader('Idempotency-Key', idempotencyKey);
  if (a.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.end(a.body);
}
