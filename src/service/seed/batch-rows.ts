/**
 * Seeded members' memberships, invoices, cards and member events, in the shapes the member API
 * and the billing run write them (plan-signup.ts, renewals.ts), gathered for a batch of members
 * and written with one call per kind.
 */
import { formatMoney } from '../billing/money';
import type {
  NewInvoice, NewMemberEvent, NewMembership, NewPaymentMethod, SiteRecord, TestProcessorCard, TestProcessorCharge, TestProcessorCustomer,
} from '../store/records';
import type { Store } from '../store/store';
import type { MemberBilling } from './member-billing';

/** Amounts as the service writes them in event details: in the site's language, e.g. "$238.80". */
export function moneyText(site: SiteRecord): (cents: number, currency: string) => string {
  const known = new Map<string, string>();
  return (cents, currency) => {
    const key = `${cents} ${currency}`;
    let text = known.get(key);
    if (text === undefined) known.set(key, (text = formatMoney(cents, currency, site.locale)));
    return text;
  };
}

/**
 * One batch's memberships, invoices, cards and events, in the shapes the member API and the
 * billing run write them (plan-signup.ts, renewals.ts), naming members by their index in the
 * batch and memberships by their index here until `write` gives both their ids.
 */
export class BatchRows {
  private readonly memberships: NewMembership[] = [];
  private readonly events: NewMemberEvent[] = [];
  private readonly invoices: NewInvoice[] = [];
  private readonly cards: NewPaymentMethod[] = [];
  /** The processor's side of the same customers and cards (decision 0029). */
  private readonly processorCustomers: TestProcessorCustomer[] = [];
  private readonly processorCards: TestProcessorCard[] = [];
  /** The processor's record of each charge, so an owner can refund a seeded invoice (issue 32). */
  private readonly processorCharges: TestProcessorCharge[] = [];
  /** Rows whose membershipId is, until written, the index of their membership in `memberships`. */
  private readonly byMembership: Array<{ membershipId?: number }> = [];

  constructor(private readonly siteId: number) {}

  event(member: number, eventType: NewMemberEvent['eventType'], createdAt: number, details: Record<string, unknown> = {}): void {
    this.events.push({ siteId: this.siteId, memberId: member, eventType, details, createdAt });
  }

  /** `who` is the member as the processor's customer knows them (e-mail, name), as ensureCustomer tells it. */
  add(
    member: number,
    key: string,
    billing: MemberBilling,
    money: (cents: number, currency: string) => string,
    who: { email: string; firstName?: string; lastName?: string },
  ): void {
    const { siteId } = this;
    this.addProcessorRecords(billing, who);
    let n = 0;
    const nextId = () => `${key}N${(n++).toString(36)}`;
    if (billing.abandoned) {
      const { planId, at, amounts, currency, description } = billing.abandoned;
      const id = nextId();
      const [processorInvoiceId, processorChargeId] = [`in_test_${id}`, `ch_test_${id}`];
      this.invoices.push({
        siteId, memberId: member, planId, processorInvoiceId, processorChargeId, subTotalCents: amounts.subTotalCents, taxCents: amounts.taxCents,
        totalCents: amounts.grandTotalCents, currency, status: 'failed', description, createdAt: at,
      });
      // Exactly the fields of spec 2.5, as plan-signup.ts writes them.
      this.event(member, 'abandonedConversion', at, { amount: money(amounts.grandTotalCents, currency), chargeId: processorChargeId, invoiceId: processorInvoiceId });
    }
    for (const history of billing.histories) {
      const index = this.memberships.length;
      const { planId, createdAt } = history.membership;
      this.memberships.push({ siteId, memberId: member, ...history.membership });
      // The order is the sign-up's invoice (the first charge, and the next id); a sign-up that
      // charged nothing has an order id of its own.
      const orderId = history.charges[0]?.signUp ? `in_test_${key}N${n.toString(36)}` : `ord_${nextId()}`;
      const conversion = { planId, membershipId: index, orderId };
      this.byMembership.push(conversion);
      this.event(member, 'conversion', createdAt, conversion);
      for (const c of history.charges) {
        const id = nextId();
        const processorInvoiceId = `in_test_${id}`;
        const processorChargeId = `ch_test_${id}`;
        const invoice: NewInvoice = {
          siteId, memberId: member, planId, membershipId: index, processorInvoiceId, processorChargeId,
          subTotalCents: c.amounts.subTotalCents, taxCents: c.amounts.taxCents, totalCents: c.amounts.grandTotalCents,
          currency: c.currency, status: c.status, description: c.description, createdAt: c.at,
        };
        this.invoices.push(invoice);
        this.byMembership.push(invoice);
        if (billing.processorCustomerId !== undefined) {
          this.processorCharges.push({
            invoiceId: processorInvoiceId, chargeId: processorChargeId, customerId: billing.processorCustomerId,
            cardId: billing.card?.processorId ?? `pm_test_ok_${key}`, amountCents: c.amounts.grandTotalCents, currency: c.currency,
            description: c.description, status: c.status, ...(c.status === 'failed' && { declineCode: 'card_declined' as const }), createdAt: c.at,
          });
        }
        if (c.status === 'failed') {
          // The billing run's details (renewals.ts).
          const details = {
            planId, membershipId: index, amount: money(c.amounts.grandTotalCents, c.currency), reason: 'card_declined', attempt: c.attempt,
            chargeId: processorChargeId, invoiceId: processorInvoiceId,
          };
          this.byMembership.push(details);
          this.event(member, 'paymentFailed', c.at, details);
        }
      }
      if (history.cancellationAt !== undefined) this.event(member, 'cancellation', history.cancellationAt, { planId });
      if (history.endedByFailuresAt !== undefined) this.event(member, 'cancellation', history.endedByFailuresAt, { planId, reason: 'paymentFailed' });
    }
    if (billing.card) this.cards.push({ siteId, memberId: member, ...billing.card });
  }

  /** The customer the member's first sign-up or attempt made at the processor, and the card saved there. */
  private addProcessorRecords(billing: MemberBilling, who: { email: string; firstName?: string; lastName?: string }): void {
    const customerId = billing.processorCustomerId;
    if (customerId === undefined) return;
    const times = [...billing.histories.map((h) => h.membership.createdAt), ...(billing.abandoned ? [billing.abandoned.at] : [])];
    const name = [who.firstName, who.lastName].filter(Boolean).join(' ');
    this.processorCustomers.push({ id: customerId, email: who.email, ...(name && { name }), createdAt: Math.min(...times) });
    const card = billing.card;
    if (card) {
      this.processorCards.push({
        id: card.processorId, customerId, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear,
        ...(billing.cardDeclineCode && { declineCode: billing.cardDeclineCode }), createdAt: card.createdAt,
      });
    }
  }

  /**
   * Writes every row, members' ids in place of their indexes; answers how many of each. Invoices
   * and cards go through `billing`: the store's batch methods unless given another writer.
   */
  async write(store: Store, memberIds: readonly number[], now: number, billing: BillingRowsWriter = storeBillingRows(store)) {
    for (const row of [...this.memberships, ...this.events, ...this.invoices, ...this.cards]) row.memberId = memberIds[row.memberId]!;
    const membershipIds = await store.createMemberships(this.memberships);
    for (const row of this.byMembership) row.membershipId = membershipIds[row.membershipId!]!;
    for (const event of this.events) event.createdAt = Math.min(event.createdAt, now);
    // Independent of each other: on PostgreSQL each goes on its own pooled connection at once.
    await Promise.all([
      store.createMemberEvents(this.events),
      billing.write(this.invoices, this.cards),
      (async () => {
        await store.createTestProcessorCustomers(this.processorCustomers);
        await store.addTestProcessorCards(this.processorCards);
        await store.addTestProcessorCharges(this.processorCharges);
      })(),
    ]);
    return { memberships: this.memberships.length, events: this.events.length, invoices: this.invoices.length, paymentMethods: this.cards.length };
  }
}

/**
 * Where a batch's invoices and cards go. Every row names a member, plan and membership the store
 * holds; no member has a card yet.
 */
export interface BillingRowsWriter {
  write(invoices: readonly NewInvoice[], cards: readonly NewPaymentMethod[]): Promise<void>;
}

/**
 * Through the store's batch methods: each kind in one transaction, with multi-row statements on
 * SQLite. The one-row methods (a member API call writes one invoice, one card) cost a transaction
 * each, about 0.15 ms on SQLite: at 100,000 members, some 270,000 invoices and 60,000 cards, that
 * made the seed seven times slower.
 */
export function storeBillingRows(store: Store): BillingRowsWriter {
  return {
    async write(invoices, cards) {
      await store.createInvoices(invoices);
      await store.savePaymentMethods(cards);
    },
  };
}
