/** Every row of the svcopen table (spec 4.1), its placeholders, and what is not a route. */
import { expect, test } from 'vitest';
import { matchRoute } from '../../../src/widget/router/routes';

test.each([
  ['/member/sign_in', 'signIn', {}],
  ['/member/sign_out', 'signOut', {}],
  ['/member/sign_up', 'signUp', {}],
  ['/member/sign_up/monthly', 'signUp', { planPublicId: 'monthly' }],
  ['/member/plans', 'planSignUp', {}],
  ['/member/plans/ab3CDe7F', 'planSignUp', { planPublicId: 'ab3CDe7F' }],
  ['/member/plans/all', 'allPlans', {}],
  ['/member/account', 'account', {}],
  ['/member/account/edit', 'accountEdit', {}],
  ['/member/account/email_change', 'emailChange', {}],
  ['/member/account/password_change', 'passwordChange', {}],
  ['/member/invoices', 'invoices', {}],
  ['/member/payment_method/update', 'paymentMethod', {}],
  ['/member/memberships', 'memberships', {}],
  ['/content/42', 'content', { contentId: '42' }],
  ['/content/42/download', 'content', { contentId: '42', viewingPreference: 'download' }],
  ['/content/42/popup', 'content', { contentId: '42', viewingPreference: 'popup' }],
  // The owner's keys from the site file name items and plans too.
  ['/content/issue-41', 'content', { contentId: 'issue-41' }],
  ['/content/issue-41/popup', 'content', { contentId: 'issue-41', viewingPreference: 'popup' }],
  ['/member/sign_up/supporter.yearly', 'signUp', { planPublicId: 'supporter.yearly' }],
  ['/member/account/', 'account', {}],
  ['/member/plans/monthly/', 'planSignUp', { planPublicId: 'monthly' }],
])('%s is %s', (path, name, params) => {
  expect(matchRoute(path)).toEqual({ name, params });
});

test.each([
  '', '/', 'member/sign_in', '/member', '/member/sign_in/extra', '/member/signin', '/MEMBER/SIGN_IN',
  '/member/sign_up/a/b', '/member/plans/all/more', '/member/plans/has space', '/member/plans/%E0%A4%A',
  '/member/plans/<script>', '/member/account/delete', '/content', '/content/has space', '/content/<b>', '/content/42/print',
  '/content/42/popup/x', '/member/payment_method', '//member/sign_in',
])('%j is no route', (path) => {
  expect(matchRoute(path)).toBeNull();
});

test('placeholders are decoded before they are checked', () => {
  expect(matchRoute('/member/plans/month%6Cy')).toEqual({ name: 'planSignUp', params: { planPublicId: 'monthly' } });
  expect(matchRoute('/member/plans/a%2Fb')).toBeNull();
});
