// @vitest-environment happy-dom
/** `Service.conversion` (spec 6.1): the path the plan sign-up flow sends it through. */
import { expect, test } from 'vitest';
import type { ConversionDetail } from '../../src/contract/member';
import { dispatchConversion } from '../../src/widget/conversion';
import { dispatch } from '../../src/widget/dispatch';

const detail: ConversionDetail = {
  membership: {
    id: 7, planId: 3, publicPlanId: 'monthly', name: 'Monthly', type: 'subscription', createdAt: '2026-11-01T12:00:00.000Z',
    status: 'active', billingPeriodEnd: '2026-12-01T12:00:00.000Z', paymentFailure: false, welcomeUrl: '', contentUrl: '',
  },
  order: { id: 'ord_1', subTotal: 12, subTotalCents: 1200, grandTotal: 12, grandTotalCents: 1200, currency: 'usd' },
  member: { id: 1, name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@demo.localhost', processorCustomerId: 'cus_1' },
};

test('dispatchConversion sends Service.conversion on document with {membership, order, member}', () => {
  const received: ConversionDetail[] = [];
  const listener = (event: CustomEvent<ConversionDetail>) => received.push(event.detail);
  document.addEventListener('Service.conversion', listener);
  dispatchConversion(document, detail);
  document.removeEventListener('Service.conversion', listener);
  expect(received).toEqual([detail]);
  received[0]!.order.grandTotalCents = 0;
  expect(detail.order.grandTotalCents).toBe(1200); // the page gets its own copy
});

test('event details are typed by the event map', () => {
  document.addEventListener('Service.member.info', (event) => {
    const email: string = event.detail.memberInfo.email;
    void email;
  });
  // @ts-expect-error logout carries no payload
  dispatch(document, 'Service.member.logout', { memberInfo: detail.member });
  // @ts-expect-error a conversion needs an order
  dispatchConversion(document, { membership: detail.membership, member: detail.member });
  // @ts-expect-error no such event
  dispatch(document, 'Service.member.login', null);
  expect(true).toBe(true);
});
