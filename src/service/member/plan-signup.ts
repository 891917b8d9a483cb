/**
 * A member signing up to a plan (spec 4.1 "Plan sign-up", 6.1 `Service.conversion`): the
 * processor customer (made once, for free plans too, so the conversion always names it), the
 * card, the first charge, the membership with the dates of decision 0013, the invoice in the
 * service's own ledger, and the member events. A declined card leaves no membership: a card
 * refused as it is saved (docs/test-cards.md: 0002, 9995), whatever the plan, leaves nothing
 * else either, since nothing was charged; a declined first charge (0341) leaves a failed invoice
 * and an `abandonedConversion` event, whose details (spec 2.5: amount, chargeId, invoiceId) are
 * those of that charge.
 *
 * One member, one plan, one charge, however many sign-ups arrive at once in however many
 * processes (decision 0029): the sign-up is claimed in the store (a lease on the member and plan)
 * before the processor is asked for anything, and the claim is given up when the attempt ends,
 * however it ends. A sign-up that finds the claim taken is answered as one of a member already on
 * the plan. The charge's idempotency key names the attempt (the member's customer, the plan, and
 * how many memberships and invoices of the plan the ledger holds), so the same attempt asked again
 * (after its process died between the charge and its record) is the same charge.
 */
import type { ConversionDetail, PaymentActionRequired } from '../../contract/member';
import { membershipStatus, newMembershipTerms } from '../billing/membership-terms';
import { formatMoney, fromMinor } from '../billing/money';
import { receiptMails } from '../billing/notices';
import { quotePlan } from '../billing/quote';
import type { Clock } from '../domain/clock';
import { randomId } from '../domain/random';
import {
  CardDeclinedError,
  InvalidCardError,
  PaymentDeclinedError,
  UnknownPaymentReferenceError,
  type CardDetails,
  type ChargeReceipt,
  type PaymentOutcome,
  type PaymentProcessor,
  type RequiresAction,
} from '../payments/processor';
import type { MemberRecord, NewInvoice, PlanRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { MemberError } from './errors';
import { toWidgetMembership } from './member-info';

export interface BillingDeps {
  store: Store;
  clock: Clock;
  processor: PaymentProcessor;
}

/**
 * How long a plan sign-up's claim holds: far longer than a sign-up takes (a charge included). A
 * process that dies holding one leaves the member free to sign up again once it lapses.
 */
export const SIGN_UP_CLAIM_MS = 5 * 60_000;

const CARD_FIELDS = ['cardNumber', 'cardExpiry', 'cardCvc'] as const;

/**
 * How a member pays, as a body says it: a payment method the processor's browser code made
 * (Stripe.js's `pm_…`, or the test processor's card field's `pm_test_…`). The card itself goes
 * from the page to the processor, never to this API.
 */
export type Payment = { paymentMethodId: string };

/** An id a processor gave (`pm_…`, `pi_…`), as a body may carry one. */
export const PROCESSOR_ID = /^[A-Za-z0-9_]{3,255}$/;

/**
 * The payment method a body names, if any. Card fields are refused (400, changing nothing): on
 * every processor the card goes to the processor from the page (the test processor's endpoint,
 * POST /test-payment-methods), and only the payment method it answers comes here.
 */
export function readPayment(body: Record<string, unknown>): Payment | undefined {
  if (CARD_FIELDS.some((field) => body[field] !== undefined)) {
    throw MemberError.of(
      400,
      'invalidField',
      'Card numbers are not taken here: the page sends the card to the payment processor and this API only the paymentMethodId it answers',
      'cardNumber',
    );
  }
  if (body.paymentMethodId === undefined) return undefined;
  if (typeof body.paymentMethodId !== 'string' || !PROCESSOR_ID.test(body.paymentMethodId)) {
    throw MemberError.of(400, 'invalidField', 'A payment method id is the one the processor made of the card, such as pm_1Q2…', 'paymentMethodId');
  }
  return { paymentMethodId: body.paymentMethodId };
}

/** Where a card problem is said: the test processor's card field, or the payment method Stripe.js made. */
export const cardPathOf = (processor: PaymentProcessor): 'cardNumber' | 'paymentMethodId' => (processor.addPaymentMethod ? 'cardNumber' : 'paymentMethodId');

/** The test processor's card fields (POST /test-payment-methods): each must be text. */
export function readCard(body: Record<string, unknown>): CardDetails {
  const problems = CARD_FIELDS.filter((field) => typeof body[field] !== 'string').map((path) => ({
    path,
    code: 'invalidField' as const,
    message: 'Enter the card number, its expiry (MM/YY) and its security code',
  }));
  if (problems.length > 0) throw MemberError.fields(problems);
  return { cardNumber: body.cardNumber as string, cardExpiry: body.cardExpiry as string, cardCvc: body.cardCvc as string };
}

/**
 * The member's processor customer, made on first need; re-read first, so one is never made twice
 * in sequence. `unknown` is a customer id the processor said it does not know: a new one replaces it.
 */
export async function ensureCustomer({ store, processor }: BillingDeps, site: SiteRecord, member: MemberRecord, unknown?: string): Promise<string> {
  const fresh = (await store.getMember(site.id, member.id)) ?? member;
  if (fresh.processorCustomerId && fresh.processorCustomerId !== unknown) return fresh.processorCustomerId;
  const name = [fresh.firstName, fresh.lastName].filter(Boolean).join(' ');
  const { customerId } = await processor.createCustomer({ email: fresh.email, ...(name && { name }) });
  await store.updateMember(site.id, member.id, { processorCustomerId: customerId });
  return customerId;
}

/**
 * `work` with the member's processor customer; once more with a new customer when the processor
 * does not know that one (data imported from elsewhere, a processor whose records were lost).
 */
async function withCustomer<T>(deps: BillingDeps, site: SiteRecord, member: MemberRecord, work: (customerId: string) => Promise<T>): Promise<T> {
  const customerId = await ensureCustomer(deps, site, member);
  return work(customerId).catch(async (error: unknown) => {
    if (!(error instanceof UnknownPaymentReferenceError && error.resource === 'customer')) throw error;
    return work(await ensureCustomer(deps, site, member, customerId));
  });
}

/**
 * Saves a new card for the member (replacing the saved one): the payment method the processor
 * made of it is attached to the member's customer, and verified with its bank as it is (a card
 * its bank refuses is a 402, and the card saved before stays). A member whose customer the
 * processor does not know (data imported from elsewhere, a processor whose records were lost)
 * gets a new customer, which the card is attached to.
 */
export async function saveCard(deps: BillingDeps, site: SiteRecord, member: MemberRecord, payment: Payment) {
  const { processor } = deps;
  try {
    const method = await withCustomer(deps, site, member, (customerId) => processor.attachPaymentMethod(customerId, payment.paymentMethodId));
    return await deps.store.savePaymentMethod({
      siteId: site.id, memberId: member.id, processorId: method.id, brand: method.brand, last4: method.last4,
      expMonth: method.expMonth, expYear: method.expYear, createdAt: deps.clock(),
    });
  } catch (error) {
    throw cardError(error, 'paymentMethodId');
  }
}

/** A processor's word on a card as the member API says it: 400 naming each bad field, 402 a refusal; anything else as it was. */
function cardError(error: unknown, path: 'cardNumber' | 'paymentMethodId'): unknown {
  if (error instanceof InvalidCardError) {
    return MemberError.fields(error.issues.map(({ path: field, message }) => ({ path: field, code: 'invalidField' as const, message })));
  }
  if (error instanceof CardDeclinedError) return MemberError.of(402, 'paymentDeclined', error.message, path);
  if (error instanceof UnknownPaymentReferenceError && error.resource === 'paymentMethod') {
    return MemberError.of(400, 'invalidField', 'No such payment method: make it again with the card', path);
  }
  return error;
}

/**
 * The test processor's card field (`POST /test-payment-methods`): the card is checked with its
 * "bank" (a card refused as it is saved is refused here, 402) and kept with the member's test
 * customer, and the widget sends only the `pm_test_…` id it answers, as Stripe.js makes one at
 * Stripe. The member's saved card is not changed: a sign-up or PUT /payment-method with the id does.
 */
export async function makeTestPaymentMethod(deps: BillingDeps, site: SiteRecord, member: MemberRecord, card: CardDetails) {
  try {
    return await withCustomer(deps, site, member, (customerId) => deps.processor.addPaymentMethod!(customerId, card));
  } catch (error) {
    throw cardError(error, 'cardNumber');
  }
}

export async function signUpToPlan(
  deps: BillingDeps,
  site: SiteRecord,
  member: MemberRecord,
  plan: PlanRecord,
  payment: Payment | undefined,
): Promise<ConversionDetail | PaymentActionRequired> {
  return signUpToPlanWith(deps, site, member, plan, () => signUpClaimed(deps, site, member, plan, payment));
}

/** `work` under the member's claim on the plan, unless the member is on it already (409). */
async function signUpToPlanWith<T>(deps: BillingDeps, site: SiteRecord, member: MemberRecord, plan: PlanRecord, work: () => Promise<T>): Promise<T> {
  const { store, clock } = deps;
  const alreadyMember = () =>
    MemberError.of(409, 'alreadyMember', `You are on ${plan.name} already: its content is at ${plan.contentUrl ?? `https://${site.domain}/`}`, 'planPublicId');
  const onPlan = async () =>
    (await store.listMembershipsOfMember(site.id, member.id)).some((m) => m.planId === plan.id && membershipStatus(m, clock()) === 'active');
  if (await onPlan()) throw alreadyMember();
  const release = await claimPlanSignUp(store, { siteId: site.id, memberId: member.id, planId: plan.id }, clock());
  if (!release) {
    // Another sign-up of the member to the plan is under way: answered as one that has ended would be (the 409 above).
    throw MemberError.of(409, 'alreadyMember', `You are joining ${plan.name} already, in another request: wait for it to end`, 'planPublicId');
  }
  try {
    // Read again under the claim: a sign-up that held it before has recorded its membership by now.
    if (await onPlan()) throw alreadyMember();
    return await work();
  } finally {
    await release();
  }
}

/**
 * Claims the member's sign-up to the plan: a lease in the store (the renewals' claims are too),
 * taken by one caller at a time in any number of processes, until released or SIGN_UP_CLAIM_MS
 * after `now`. Answers the release, or undefined when another sign-up holds the claim.
 */
export async function claimPlanSignUp(
  store: Pick<Store, 'tryLease' | 'releaseLease'>,
  signUp: { siteId: number; memberId: number; planId: number },
  now: number,
): Promise<(() => Promise<void>) | undefined> {
  const name = `plan-signup:${signUp.siteId}:${signUp.memberId}:${signUp.planId}`;
  const holder = randomId(16);
  if (!(await store.tryLease(name, holder, now, SIGN_UP_CLAIM_MS))) return undefined;
  return async () => void (await store.releaseLease(name, holder));
}

/** The sign-up, under its claim: paid (or the bank's question), then recorded. */
async function signUpClaimed(
  deps: BillingDeps,
  site: SiteRecord,
  member: MemberRecord,
  plan: PlanRecord,
  payment: Payment | undefined,
): Promise<ConversionDetail | PaymentActionRequired> {
  const { store, clock, processor } = deps;
  const now = clock();
  const quote = quotePlan(plan, now);
  let customerId = await ensureCustomer(deps, site, member);
  let paid: ChargeReceipt | RequiresAction | undefined;
  const cardPath = cardPathOf(processor);
  if (plan.type !== 'free') {
    const card = payment ? await saveCard(deps, site, member, payment) : await store.getPaymentMethod(site.id, member.id);
    if (!card) throw MemberError.of(400, 'invalidField', 'Enter a card to pay with', cardPath);
    // Saving the card may have given the member a new customer (saveCard).
    customerId = await ensureCustomer(deps, site, member);
    const { grandTotalCents } = quote.dueNow;
    if (grandTotalCents > 0) {
      try {
        const idempotencyKey = await signUpAttemptKey(store, site, member, plan, customerId, card.processorId);
        const request = { amountCents: grandTotalCents, currency: quote.currency!, description: plan.name, idempotencyKey };
        // The member is here: a processor that can ask the bank's questions in the browser does.
        paid = processor.chargeOnSession
          ? await processor.chargeOnSession(customerId, card.processorId, { ...request, metadata: signUpMetadata(site, member, plan) })
          : await processor.charge(customerId, card.processorId, request);
      } catch (error) {
        if (!(error instanceof PaymentDeclinedError)) throw error;
        await recordDeclined(deps, site, member, plan, quote.dueNow, error);
        throw MemberError.of(402, 'paymentDeclined', error.message, cardPath);
      }
    } else if (processor.setUpOnSession) {
      // Nothing due now (a trial): the card is set up for the renewals, the bank asked now if it must be.
      try {
        const idempotencyKey = `setup:${await signUpAttemptKey(store, site, member, plan, customerId, card.processorId)}`;
        const setUp = await processor.setUpOnSession(customerId, card.processorId, { idempotencyKey, metadata: signUpMetadata(site, member, plan) });
        if (setUp !== 'setUp') paid = setUp;
      } catch (error) {
        if (!(error instanceof CardDeclinedError)) throw error;
        throw MemberError.of(402, 'paymentDeclined', error.message, cardPath);
      }
    }
  }
  if (paid && 'status' in paid) return { requiresAction: { intentId: paid.intentId, clientSecret: paid.clientSecret } };
  return recordSignUp(deps, site, member, plan, customerId, paid, now);
}

/** What the service writes on a payment it makes for a sign-up, so its confirmation finds the sign-up again. */
const signUpMetadata = (site: SiteRecord, member: MemberRecord, plan: PlanRecord) => ({
  svc_site: String(site.id), svc_member: String(member.id), svc_plan: String(plan.id),
});

/** A payment id that names none of this member's payments: a 404, whatever the reason. */
export const notYourPayment = () => MemberError.of(404, 'notFound', 'No payment of yours with that id', 'intentId');

/** How a payment the bank asked about ended, as the processor says (never the browser); an id it does not know is notYourPayment. */
export async function askProcessor(processor: PaymentProcessor, intentId: string): Promise<PaymentOutcome> {
  if (!processor.paymentOutcome) throw notYourPayment();
  return processor.paymentOutcome(intentId).catch((error: unknown) => {
    if (error instanceof UnknownPaymentReferenceError) throw notYourPayment();
    throw error;
  });
}

/**
 * A sign-up whose payment the bank wanted confirmed (POST /memberships/confirm): the service asks
 * the processor how the intent ended (never the browser), checks it is this member's sign-up on
 * this site, and records the membership only if it was paid. Confirming twice finds the member on
 * the plan (409).
 */
export async function confirmSignUp(deps: BillingDeps, site: SiteRecord, member: MemberRecord, intentId: string): Promise<ConversionDetail> {
  const { store, processor, clock } = deps;
  const outcome = await askProcessor(processor, intentId);
  const fresh = (await store.getMember(site.id, member.id)) ?? member;
  const meta = outcome.metadata;
  if (meta.svc_site !== String(site.id) || meta.svc_member !== String(member.id) || outcome.customerId !== fresh.processorCustomerId) throw notYourPayment();
  const plan = await store.getPlan(site.id, Number(meta.svc_plan));
  if (!plan) throw notYourPayment();
  const result = await signUpToPlanWith(deps, site, fresh, plan, async () => {
    const now = clock();
    if (outcome.status === 'requiresAction') {
      throw MemberError.of(409, 'paymentPending', 'The payment still waits for your bank: confirm it in the window your bank opened', 'intentId');
    }
    // A card set up for a trial moved no money: refused, it is no failed payment to record.
    if (outcome.setup && outcome.status === 'failed') throw MemberError.of(402, 'paymentDeclined', 'Your bank did not confirm the card.', 'intentId');
    if (outcome.status === 'failed' || (!outcome.receipt && !outcome.setup)) {
      const refused = () => MemberError.of(402, 'paymentDeclined', 'Your bank did not confirm the payment.', 'intentId');
      // Confirmed twice: the refusal is recorded once.
      if ((await store.listInvoicesOfMember(site.id, fresh.id)).some((i) => i.processorInvoiceId === intentId)) throw refused();
      const quote = quotePlan(plan, now);
      const declined = new PaymentDeclinedError('card_declined', `${intentId}:declined`, intentId, outcome.amountCents, outcome.currency);
      await recordDeclined(deps, site, fresh, plan, quote.dueNow, declined);
      throw refused();
    }
    return recordSignUp(deps, site, fresh, plan, outcome.customerId, outcome.receipt, now);
  });
  return result as ConversionDetail;
}

/** The membership, its invoice when paid, the conversion event, and what the widget is answered. */
async function recordSignUp(
  deps: BillingDeps,
  site: SiteRecord,
  member: MemberRecord,
  plan: PlanRecord,
  customerId: string,
  receipt: ChargeReceipt | undefined,
  now: number,
): Promise<ConversionDetail> {
  const { store } = deps;
  const quote = quotePlan(plan, now);
  const terms = newMembershipTerms(plan, now);
  const [membershipId] = (await store.createMemberships([
    {
      siteId: site.id, memberId: member.id, planId: plan.id, status: 'active', createdAt: now, paymentFailure: false,
      ...(terms.expiresAt !== undefined && { expiresAt: terms.expiresAt }),
      ...(terms.billingPeriodEnd !== undefined && { billingPeriodEnd: terms.billingPeriodEnd }),
      ...(terms.paymentsMade !== undefined && { paymentsMade: terms.paymentsMade }),
    },
  ])) as [number];
  const { subTotalCents, taxCents, grandTotalCents } = quote.dueNow;
  if (receipt) {
    const invoice: NewInvoice = {
      siteId: site.id, memberId: member.id, planId: plan.id, membershipId, processorInvoiceId: receipt.invoiceId,
      processorChargeId: receipt.chargeId, subTotalCents, taxCents, totalCents: grandTotalCents, currency: quote.currency!,
      status: 'paid', description: plan.name, createdAt: now,
    };
    await store.createInvoice(invoice, receiptMails(site, member, plan, invoice));
  }
  const orderId = receipt?.invoiceId ?? `ord_${randomId(14)}`;
  await store.createMemberEvents([
    { siteId: site.id, memberId: member.id, eventType: 'conversion', details: { planId: plan.id, membershipId, orderId }, createdAt: now },
  ]);
  const record = (await store.listMembershipsOfMember(site.id, member.id)).find((m) => m.id === membershipId)!;
  const money = (cents: number) => (quote.currency ? fromMinor(cents, quote.currency) : 0);
  return {
    membership: toWidgetMembership(record, plan, site, now),
    order: {
      id: orderId,
      subTotal: money(subTotalCents),
      subTotalCents,
      grandTotal: money(grandTotalCents),
      grandTotalCents,
      ...(quote.currency !== undefined && { currency: quote.currency }),
    },
    member: {
      id: member.id,
      name: [member.firstName, member.lastName].filter(Boolean).join(' '),
      firstName: member.firstName ?? '',
      lastName: member.lastName ?? '',
      email: member.email,
      processorCustomerId: customerId,
    },
  };
}

/**
 * The idempotency key of a sign-up's first charge: the member's customer (random, so no other
 * installation's key), the plan, and what the ledger holds of the member on the plan
 * (memberships, invoices). Read under the sign-up's claim, so nobody changes it meanwhile. Every
 * attempt that records anything (a membership, a failed invoice) moves it, so a member trying
 * again after a decline is charged again; an attempt that recorded nothing (its process died
 * after the charge) asked again gets the same key, and the processor the same charge. The card
 * is in it too: an attempt that recorded nothing because the bank's question was left unanswered
 * (3-D Secure) is tried again with another card under another key (Stripe refuses a key used
 * again with other parameters), and with the same card meets the same question.
 */
async function signUpAttemptKey(store: Store, site: SiteRecord, member: MemberRecord, plan: PlanRecord, customerId: string, cardId: string): Promise<string> {
  const [memberships, invoices] = await Promise.all([
    store.listMembershipsOfMember(site.id, member.id),
    store.listInvoicesOfMember(site.id, member.id),
  ]);
  const recorded = memberships.filter((m) => m.planId === plan.id).length + invoices.filter((i) => i.planId === plan.id).length;
  return `plan-signup:${site.id}:${plan.id}:${customerId}:${recorded}:${cardId}`;
}

/** A declined first charge: a failed invoice in the ledger and an abandoned conversion (spec 2.5). */
async function recordDeclined(
  { store, clock }: BillingDeps,
  site: SiteRecord,
  member: MemberRecord,
  plan: PlanRecord,
  due: { subTotalCents: number; taxCents: number; grandTotalCents: number },
  error: PaymentDeclinedError,
): Promise<void> {
  const now = clock();
  await store.createInvoice({
    siteId: site.id, memberId: member.id, planId: plan.id, processorInvoiceId: error.invoiceId, processorChargeId: error.chargeId,
    subTotalCents: due.subTotalCents, taxCents: due.taxCents, totalCents: due.grandTotalCents, currency: error.currency,
    status: 'failed', description: plan.name, createdAt: now,
  });
  await store.createMemberEvents([
    {
      siteId: site.id, memberId: member.id, eventType: 'abandonedConversion', createdAt: now,
      // Exactly the fields of spec 2.5 (the Admin API's schema is closed).
      details: { amount: formatMoney(error.amountCents, error.currency, site.locale), chargeId: error.chargeId, invoiceId: error.invoiceId },
    },
  ]);
}
