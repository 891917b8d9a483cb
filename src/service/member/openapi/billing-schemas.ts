/**
 * What the member's plans and payments answer (src/contract/member.ts, field for field): the
 * conversion detail of a plan sign-up, the bank's question (3-D Secure), the price of a running
 * membership and of a plan change, invoices and cards. Amounts are in minor units unless named
 * otherwise.
 */
import { currency, dateTime, id, money, object, oneOfValues, schemaRef, str, type Schema } from '../../openapi/schema-helpers';

const cents = (description?: string): Schema => ({ type: 'integer', minimum: 0, ...(description !== undefined && { description }) });
const processorId = (description: string): Schema => ({ type: 'string', pattern: '^[A-Za-z0-9_]{3,255}$', description });

const RecurringPrice = object(
  { amountCents: cents('Tax included.'), subTotalCents: cents(), taxCents: cents(), interval: schemaRef('Interval') },
  ['amountCents', 'subTotalCents', 'taxCents', 'interval'],
  'A charge that repeats: "$12.00 / month".',
);

const MembershipPrice = object(
  {
    id: id('The membership\'s id (Membership.id in MemberInfo).'),
    currency,
    recurring: schemaRef('RecurringPrice'),
    trialEndsAt: dateTime('While in its trial: when the trial ends and the first charge is taken.'),
  },
  ['id', 'currency', 'recurring'],
  'What one running subscription or instalment plan costs the member: the price they joined at.',
);

const PlanChangeQuote = object(
  {
    when: oneOfValues(['now', 'periodEnd'], '`now`: an upgrade, or a change during a trial; `periodEnd`: a downgrade.'),
    currency,
    creditCents: cents('Before tax: what the unused part of the period paid for is worth (0 but for an upgrade).'),
    dueNow: { ...schemaRef('ChargeAmounts'), description: 'Charged at the change: the new period less the credit, with the new plan\'s tax.' },
    next: object(
      { amountCents: cents('Tax included.'), at: dateTime() },
      ['amountCents', 'at'],
      'The charge after that, at the new plan\'s price.',
    ),
  },
  ['when', 'currency', 'creditCents', 'dueNow', 'next'],
  'What changing a running subscription to another plan would do (decision 0036).',
);

const ConversionOrder = object(
  {
    id: str('The processor\'s invoice id of the first charge, or `ord_…` when nothing was charged.'),
    subTotal: money('Before tax, in major units (12.5 for $12.50).'),
    subTotalCents: cents('Before tax.'),
    grandTotal: money('Charged now, tax included, in major units.'),
    grandTotalCents: cents('Charged now, tax included.'),
    currency: { ...currency, description: 'Present on paid plans only.' },
  },
  ['id', 'subTotal', 'subTotalCents', 'grandTotal', 'grandTotalCents'],
);

const ConversionMember = object(
  {
    id: id(),
    name: str('First and last name joined by a space.'),
    firstName: str('`""` when not given.'),
    lastName: str('`""` when not given.'),
    email: str(),
    processorCustomerId: str('The member\'s customer at the payment processor (Stripe: `cus_…`).'),
  },
  ['id', 'name', 'firstName', 'lastName', 'email', 'processorCustomerId'],
);

const ConversionDetail = object(
  { membership: schemaRef('Membership'), order: schemaRef('ConversionOrder'), member: schemaRef('ConversionMember') },
  ['membership', 'order', 'member'],
  'A member signed up to a plan: the detail of the widget\'s `Service.conversion` event (spec 6.1).',
);

const PaymentActionRequired = object(
  {
    requiresAction: object(
      {
        intentId: processorId('`pi_…` for a payment, `seti_…` for a card set up for a trial; send it to the confirmation route.'),
        clientSecret: str('For Stripe.js\'s `handleNextAction`, or the test processor\'s `POST /test-payment-intents/{intentId}`.'),
      },
      ['intentId', 'clientSecret'],
    ),
  },
  ['requiresAction'],
  'The member\'s bank wants the payment confirmed (3-D Secure): nothing is recorded until the confirmation route is called.',
);

const cardFields: Record<string, Schema> = {
  brand: oneOfValues(['visa', 'mastercard', 'amex', 'unknown']),
  last4: { type: 'string', pattern: '^[0-9]{4}$' },
  expMonth: { type: 'integer', minimum: 1, maximum: 12 },
  expYear: { type: 'integer', minimum: 2000 },
};
const cardRequired = ['brand', 'last4', 'expMonth', 'expYear'];

const InvoiceSummary = object(
  {
    id: str('The processor\'s invoice id.'),
    description: str(),
    subTotalCents: cents(),
    taxCents: cents(),
    totalCents: cents(),
    currency,
    status: oneOfValues(['paid', 'failed', 'refunded'], '`refunded`: paid, then given back in full through the processor.'),
    createdAt: dateTime(),
  },
  ['id', 'description', 'subTotalCents', 'taxCents', 'totalCents', 'currency', 'status', 'createdAt'],
);

export const billingSchemas: Record<string, Schema> = {
  MembershipPrice,
  RecurringPrice,
  PlanChangeQuote,
  ConversionDetail,
  ConversionOrder,
  ConversionMember,
  PaymentActionRequired,
  SavedCard: object(cardFields, cardRequired, 'The saved card: never its number, only what identifies it.'),
  TestPaymentMethod: object(
    { id: processorId('`pm_test_…`: send it as `paymentMethodId`.'), ...cardFields },
    ['id', ...cardRequired],
    'A card the built-in test processor made a payment method of.',
  ),
  TestPaymentAuthorization: object({ status: oneOfValues(['succeeded', 'failed']) }, ['status'], 'How the payment ended once the member answered.'),
  InvoiceSummary,
};
