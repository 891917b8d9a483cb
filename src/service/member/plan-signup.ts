/**
 * A member signing up to a plan (spec 4.1 "Plan sign-up", 6.1 `Service.conversion`): the
 * processor customer (made once, for free plans too, so the conversion always names it), the
 * card, the first charge, the membership with the dates of decision 0013, the invoice in the
 * service's own ledger, and the member events. A declined card leaves no membership: a card
 * refused as it is saved (docs/test-cards.md: 0002, 9995), whatever the plan, leaves nothing
 * else either, since nothing was charged; a declined first charge (0341) leaves a failed invoice
 * and an `abandonedConversion` event, whose details (spec 2.5: amount, chargeId, invoiceId) are
 * those of that charge.
 */
import type { ConversionDetail, PlanSignUpRequest } from '../../contract/member';
import { membershipStatus, newMembershipTerms } from '../billing/membership-terms';
import { formatMoney, fromMinor } from '../billing/money';
import { receiptMails } from '../billing/notices';
import { quotePlan } from '../billing/quote';
import type { Clock } from '../domain/clock';
import { randomId } from '../domain/random';
import { CardDeclinedError, InvalidCardError, PaymentDeclinedError, type CardDetails, type PaymentProcessor } from '../payments/processor';
import type { MemberRecord, NewInvoice, PlanRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { MemberError } from './errors';
import { toWidgetMembership } from './member-info';

export interface BillingDeps {
  store: Store;
  clock: Clock;
  processor: PaymentProcessor;
}

const CARD_FIELDS = ['cardNumber', 'cardExpiry', 'cardCvc'] as const;

/** The card in a body, when any of its fields is there; each must then be text. */
export function readCard(body: Record<string, unknown>): CardDetails | undefined {
  if (CARD_FIELDS.every((field) => body[field] === undefined)) return undefined;
  const problems = CARD_FIELDS.filter((field) => typeof body[field] !== 'string').map((path) => ({
    path,
    code: 'invalidField' as const,
    message: 'Enter the card number, its expiry (MM/YY) and its security code',
  }));
  if (problems.length > 0) throw MemberError.fields(problems);
  return { cardNumber: body.cardNumber as string, cardExpiry: body.cardExpiry as string, cardCvc: body.cardCvc as string };
}

/** The member's processor customer, made on first need; re-read first, so one is never made twice in sequence. */
export async function ensureCustomer({ store, processor }: BillingDeps, site: SiteRecord, member: MemberRecord): Promise<string> {
  const fresh = (await store.getMember(site.id, member.id)) ?? member;
  if (fresh.processorCustomerId) return fresh.processorCustomerId;
  const name = [fresh.firstName, fresh.lastName].filter(Boolean).join(' ');
  const { customerId } = await processor.createCustomer({ email: fresh.email, ...(name && { name }) });
  await store.updateMember(site.id, member.id, { processorCustomerId: customerId });
  return customerId;
}

/**
 * Saves a new card for the member (replacing the saved one); a bad card is a 400 naming each
 * field, a card its bank refuses as it is saved a 402, and either keeps the card saved before.
 */
export async function saveCard(deps: BillingDeps, site: SiteRecord, member: MemberRecord, card: CardDetails) {
  const customerId = await ensureCustomer(deps, site, member);
  try {
    const method = await deps.processor.addPaymentMethod(customerId, card);
    return await deps.store.savePaymentMethod({
      siteId: site.id, memberId: member.id, processorId: method.id, brand: method.brand, last4: method.last4,
      expMonth: method.expMonth, expYear: method.expYear, createdAt: deps.clock(),
    });
  } catch (error) {
    if (error instanceof InvalidCardError) {
      throw MemberError.fields(error.issues.map(({ path, message }) => ({ path, code: 'invalidField' as const, message })));
    }
    if (error instanceof CardDeclinedError) throw MemberError.of(402, 'paymentDeclined', error.message, 'cardNumber');
    throw error;
  }
}

export async function signUpToPlan(
  deps: BillingDeps,
  site: SiteRecord,
  member: MemberRecord,
  plan: PlanRecord,
  request: PlanSignUpRequest & { card?: CardDetails },
): Promise<ConversionDetail> {
  const { store, clock, processor } = deps;
  const now = clock();
  const running = (await store.listMembershipsOfMember(site.id, member.id)).find(
    (m) => m.planId === plan.id && membershipStatus(m, now) === 'active',
  );
  if (running) {
    throw MemberError.of(409, 'alreadyMember', `You are on ${plan.name} already: its content is at ${plan.contentUrl ?? `https://${site.domain}/`}`, 'planPublicId');
  }
  const quote = quotePlan(plan, now);
  const customerId = await ensureCustomer(deps, site, member);
  let receipt: { chargeId: string; invoiceId: string } | undefined;
  if (plan.type !== 'free') {
    const card = request.card ? await saveCard(deps, site, member, request.card) : await store.getPaymentMethod(site.id, member.id);
    if (!card) throw MemberError.of(400, 'invalidField', 'Enter a card to pay with', 'cardNumber');
    const { grandTotalCents } = quote.dueNow;
    if (grandTotalCents > 0) {
      try {
        receipt = await processor.charge(customerId, card.processorId, { amountCents: grandTotalCents, currency: quote.currency!, description: plan.name });
      } catch (error) {
        if (!(error instanceof PaymentDeclinedError)) throw error;
        await recordDeclined(deps, site, member, plan, quote.dueNow, error);
        throw MemberError.of(402, 'paymentDeclined', error.message, 'cardNumber');
      }
    }
  }
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
