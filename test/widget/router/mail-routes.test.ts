/** The svcopen paths of mailed links and of the two ways in without a password (issue 15). */
import { expect, test } from 'vitest';
import { matchRoute } from '../../../src/widget/router/routes';

const TOKEN = 'vrEQScHkLDesQ0ttWLaoBf3x4G8KYlTKA3Q_nTbBiRQ'; // 43 characters of base64url, as mailed

test.each([
  [`/member/sign_in/${TOKEN}`, 'signInLink', { token: TOKEN }],
  [`/member/reset_password/${TOKEN}`, 'passwordReset', { token: TOKEN }],
  [`/member/account/email_confirm/${TOKEN}`, 'emailConfirm', { token: TOKEN }],
  [`/member/account/email_confirm/${TOKEN}/`, 'emailConfirm', { token: TOKEN }],
  ['/member/forgot_password', 'forgotPassword', {}],
  ['/member/sign_in_code', 'signInCode', {}],
  ['/member/sign_in', 'signIn', {}],
])('%s is %s', (path, name, params) => {
  expect(matchRoute(path)).toEqual({ name, params });
});

test.each([
  `/member/sign_in/${TOKEN.slice(1)}`, // cut short
  `/member/sign_in/${TOKEN}x`,
  `/member/reset_password/${TOKEN.slice(0, -1)}+`,
  `/member/reset_password/${TOKEN.slice(0, -1)}%2F`,
  '/member/reset_password',
  '/member/account/email_confirm',
  `/member/account/email_confirm/${TOKEN}/more`,
  `/member/forgot_password/${TOKEN}`,
])('%s is no route', (path) => {
  expect(matchRoute(path)).toBeNull();
});
