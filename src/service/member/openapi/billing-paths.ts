/**
 * The member's plans and payments (../membership-routes.ts, ../plan-change-routes.ts,
 * ../payment-method-routes.ts and ../test-processor-routes.ts, over ../plan-signup.ts,
 * ../plan-change.ts and ../pay-now.ts): joining a plan, changing, cancelling and paying it,
 * invoices and cards, and the built-in test processor's stand-ins for the card field and the
 * bank's window. Every answer holds member data (`no-store`). A card's number never comes here
 * but to the test processor's own route: the others take the payment method it (or Stripe.js) made.
 */
import type { OpenApiObject } from '../../openapi/document';
import { arrayOf, operation, query } from './operation';

const site = (path: string) => `/sites/{subdomain}${path}`;
const membershipId = { $ref: '#/components/parameters/MembershipId' };

const bankAsks = {
  description: 'The member\'s bank wants the payment confirmed (3-D Secure): nothing is recorded until the confirmation route is called.',
  schema: 'PaymentActionRequired',
  noStore: true,
};
const membership = (description: string) => ({ description, schema: 'Membership', noStore: true });
const conversion = { description: 'Signed up: the membership, what was charged and who (the `Service.conversion` detail).', schema: 'ConversionDetail', noStore: true };
const confirmation = 'After the bank\'s question, the service asks the processor how the payment ended (never the browser).';

export const billingPaths: Record<string, Record<string, OpenApiObject>> = {
  [site('/memberships')]: {
    post: operation({
      operationId: 'joinPlan',
      summary: 'Sign up to a plan',
      description:
        'Charges what `GET /plans` says is due now, on the payment method given or else the saved card; when nothing is due now ' +
        '(a trial) the card is set up for the renewals instead. Card fields are 400 `invalidField` on `cardNumber` and change ' +
        'nothing. 402 `paymentDeclined` when the card is refused as it is saved (nothing is created) or its first charge is declined ' +
        '(a failed invoice and an `abandonedConversion` event stay); 400 `invalidField` on `paymentMethodId` for one the processor ' +
        'does not know, or when a paid plan has no card to pay with; 404 for a plan not open for sign-up.',
      tag: 'Memberships',
      session: 'required',
      body: 'PlanSignUpRequest',
      answers: { 201: conversion, 202: bankAsks },
      errors: { 400: ['invalidField'], 402: ['paymentDeclined'], 409: ['alreadyMember'] },
    }),
    get: operation({
      operationId: 'listMembershipPrices',
      summary: 'What the running memberships cost',
      description:
        'Each active subscription and instalment plan still to be charged, with what each charge costs the member (the price they ' +
        'joined at) and `trialEndsAt` while in its trial. Free and one-time memberships are not listed.',
      tag: 'Memberships',
      session: 'required',
      answers: { 200: { description: 'The prices; `[]` when nothing is to be charged.', schema: arrayOf('MembershipPrice'), noStore: true } },
    }),
  },
  [site('/memberships/confirm')]: {
    post: operation({
      operationId: 'confirmJoinPlan',
      summary: 'Confirm a plan sign-up the bank asked about',
      description:
        `${confirmation} 402 when the bank refused (a failed invoice and an \`abandonedConversion\` event; nothing for a card set ` +
        'up for a trial); 409 `paymentPending` while the bank still waits, `alreadyMember` once confirmed; 404 on `intentId` for a ' +
        'payment that is not the member\'s sign-up on this site.',
      tag: 'Memberships',
      session: 'required',
      body: 'IntentConfirmation',
      answers: { 201: conversion },
      errors: { 400: ['invalidField'], 402: ['paymentDeclined'], 409: ['paymentPending', 'alreadyMember'] },
    }),
  },
  [site('/memberships/{id}/change')]: {
    get: operation({
      operationId: 'quotePlanChange',
      summary: 'What a plan change would do',
      description:
        'By decision 0036: an upgrade now, the unused days credited; a downgrade at the period\'s end; during a trial now and free. ' +
        '409 `notChangeable` where the rules refuse it; 404 on `id` or `plan`.',
      tag: 'Memberships',
      session: 'required',
      parameters: [membershipId, query('plan', 'The plan to change to, by public id or key; none is 400 `invalidField` on `plan`.', { type: 'string', minLength: 1 }, true)],
      answers: { 200: { description: 'The quote.', schema: 'PlanChangeQuote', noStore: true } },
      errors: { 400: ['invalidField'], 409: ['notChangeable'] },
    }),
    post: operation({
      operationId: 'changePlan',
      summary: 'Change a subscription\'s plan',
      description:
        'An upgrade is charged now what the quote says (the payment method given, or the saved card) and starts a new period; a ' +
        'change during a trial keeps the trial\'s end; a downgrade waits for the renewal at the period\'s end. Records a ' +
        '`planChanged` event. 402 when the charge is declined (nothing changes; a failed invoice stays).',
      tag: 'Memberships',
      session: 'required',
      parameters: [membershipId],
      body: 'PlanChangeRequest',
      answers: { 200: membership('The membership after the change (holding `nextPlanId` for a downgrade).'), 202: bankAsks },
      errors: { 400: ['invalidField'], 402: ['paymentDeclined'], 409: ['notChangeable', 'paymentPending'] },
    }),
  },
  [site('/memberships/{id}/change/confirm')]: {
    post: operation({
      operationId: 'confirmPlanChange',
      summary: 'Confirm an upgrade the bank asked about',
      description:
        `${confirmation} Paid, the change is made at the price quoted when it was charged (asked again, the same answer); 402 on ` +
        '`intentId` when the bank did not confirm it; 409 `paymentPending` while it still waits; 404 for a payment that is not this ' +
        'member\'s change of this membership.',
      tag: 'Memberships',
      session: 'required',
      parameters: [membershipId],
      body: 'IntentConfirmation',
      answers: { 200: membership('The membership on the new plan.') },
      errors: { 400: ['invalidField'], 402: ['paymentDeclined'], 409: ['paymentPending'] },
    }),
  },
  [site('/memberships/{id}/cancel')]: {
    post: operation({
      operationId: 'cancelMembership',
      summary: 'Cancel a subscription at its period\'s end',
      description: 'A running subscription gets `cancelsOn` (its period\'s end) and stays active until then; anything else is 409 `notCancellable`.',
      tag: 'Memberships',
      session: 'required',
      parameters: [membershipId],
      answers: { 200: membership('The membership, cancelled at its period\'s end.') },
      errors: { 400: ['invalidField'], 409: ['notCancellable'] },
    }),
  },
  [site('/memberships/{id}/pay')]: {
    post: operation({
      operationId: 'payNow',
      summary: 'Pay a due renewal or instalment now',
      description:
        'One that failed and waits for its retry (above all one the bank would not take without the member), charged on the saved ' +
        'card with the member there and recorded as the billing run records a renewal. 402 on `paymentMethodId` when refused (one ' +
        'more failed attempt); 409 `notDue` when nothing is owed now; 400 `invalidField` on `paymentMethodId` with no saved card.',
      tag: 'Memberships',
      session: 'required',
      parameters: [membershipId],
      answers: { 200: membership('Paid: the membership in its next period.'), 202: bankAsks },
      errors: { 400: ['invalidField'], 402: ['paymentDeclined'], 409: ['notDue', 'paymentPending'] },
    }),
  },
  [site('/memberships/{id}/pay/confirm')]: {
    post: operation({
      operationId: 'confirmPayNow',
      summary: 'Confirm a payment the bank asked about',
      description: `${confirmation} Recorded once (asked again, the same answer); 402 on \`intentId\` when the bank did not confirm it; 409 \`paymentPending\` while it still waits.`,
      tag: 'Memberships',
      session: 'required',
      parameters: [membershipId],
      body: 'IntentConfirmation',
      answers: { 200: membership('Paid: the membership in its next period.') },
      errors: { 400: ['invalidField'], 402: ['paymentDeclined'], 409: ['paymentPending', 'notDue'] },
    }),
  },
  [site('/invoices')]: {
    get: operation({
      operationId: 'listInvoices',
      summary: 'The member\'s invoices',
      description: 'Newest first, failed attempts included.',
      tag: 'Payments',
      session: 'required',
      answers: { 200: { description: 'The invoices.', schema: arrayOf('InvoiceSummary'), noStore: true } },
    }),
  },
  [site('/payment-method')]: {
    get: operation({
      operationId: 'getPaymentMethod',
      summary: 'The saved card',
      description: 'Its brand, last four digits and expiry.',
      tag: 'Payments',
      session: 'required',
      answers: {
        200: { description: 'The saved card.', schema: 'SavedCard', noStore: true },
        204: { description: 'No card is saved (an answer, not an error).', noStore: true },
      },
    }),
    put: operation({
      operationId: 'replacePaymentMethod',
      summary: 'Replace the saved card',
      description:
        'A renewal or instalment that is due (a failed one waiting for its retry) is charged on the new card at once. 402 when the ' +
        'card\'s bank refuses it as it is saved: the card saved before stays. Card fields are 400 `invalidField` on `cardNumber`.',
      tag: 'Payments',
      session: 'required',
      body: 'PaymentMethodRequest',
      answers: { 200: { description: 'The new saved card.', schema: 'SavedCard', noStore: true } },
      errors: { 400: ['invalidField'], 402: ['paymentDeclined'] },
    }),
  },
  [site('/test-payment-methods')]: {
    post: operation({
      operationId: 'createTestPaymentMethod',
      summary: 'The test processor\'s card field',
      description:
        'The built-in test processor only (docs/test-cards.md): the card is checked with its bank and kept with the member\'s test ' +
        'customer; send the `id` as `paymentMethodId`. The saved card is not changed. 402 on `cardNumber` for a card refused as it is ' +
        'saved; 400 naming each bad field; 404 on a site that takes cards through Stripe.',
      tag: 'Payments',
      session: 'required',
      body: 'TestCard',
      answers: { 201: { description: 'The payment method made of the card.', schema: 'TestPaymentMethod', noStore: true } },
      errors: { 400: ['invalidField'], 402: ['paymentDeclined'] },
    }),
  },
  [site('/test-payment-intents/{intentId}')]: {
    post: operation({
      operationId: 'answerTestPayment',
      summary: 'The test processor\'s stand-in for the bank\'s window',
      description:
        'For its 3-D Secure cards: the member\'s answer, then the confirmation route as on a Stripe site. The first answer stands. ' +
        '404 on `intentId` for an unknown intent or another client secret, and on a site that takes cards through Stripe.',
      tag: 'Payments',
      session: 'required',
      parameters: [{ name: 'intentId', in: 'path', required: true, description: 'The `intentId` the 202 answered.', schema: { type: 'string', minLength: 1 } }],
      body: 'TestPaymentAnswer',
      answers: { 200: { description: 'How the payment ended.', schema: 'TestPaymentAuthorization', noStore: true } },
      errors: { 400: ['invalidField'] },
    }),
  },
};
