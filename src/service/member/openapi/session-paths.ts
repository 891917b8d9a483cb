/**
 * Signing up, in and out, and the mails that let a member in (../signup-route.ts,
 * ../session-routes.ts, ../sign-in-code-route.ts, ../password-reset-routes.ts; docs/member-api.md
 * "Mail").
 */
import type { OpenApiObject } from '../../openapi/document';
import { operation } from './operation';

const site = (path: string) => `/sites/{subdomain}${path}`;

const mailSent = { description: 'The mail is on its way, or would be: the same answer for every well-formed address.', schema: 'MailSentResponse' };
const signedIn = { description: 'Signed in: the session\'s bearer token and the member.', schema: 'SessionResponse', noStore: true };

/** POST `path`: a mail asked for, answered alike for every address (../mail-requests.ts). */
const mailRequest = (operationId: string, summary: string, what: string) =>
  operation({
    operationId,
    summary,
    description:
      `${what} Only a member who is not blocked gets mail, but every well-formed address gets the same answer, after the same time ` +
      '(20 ms at least), and over a send limit too (5 such mails per address per hour, 300 per site): it tells nobody who is a ' +
      'member. 429 past the mails allowed per client address.',
    tag: 'Sessions',
    body: 'MailRequest',
    answers: { 202: mailSent },
    errors: { 400: ['invalidField'], 429: ['rateLimited'] },
  });

export const sessionPaths: Record<string, Record<string, OpenApiObject>> = {
  [site('/members')]: {
    post: operation({
      operationId: 'signUp',
      summary: 'Sign up',
      description:
        'A new member, checked against the site\'s custom fields (`GET /config`; one 400 names every bad field), and a mail that ' +
        'confirms the address. Signed in at once (201), unless the site sets `mail.requireConfirmedEmail` or the body has no ' +
        '`password` key: then 202, for a taken address too (its owner gets a mail instead), and the mailed code signs in. Elsewhere a ' +
        'taken address is 409 `emailTaken`. 429 past 5 sign-ups per e-mail or the sign-ups and mails allowed per client address, or ' +
        'when the service is hashing as many passwords as it queues.',
      tag: 'Sessions',
      body: 'SignUpRequest',
      answers: { 201: signedIn, 202: mailSent },
      errors: { 400: ['invalidField'], 409: ['emailTaken'], 429: ['rateLimited'] },
    }),
  },
  [site('/sessions')]: {
    post: operation({
      operationId: 'signIn',
      summary: 'Sign in',
      description:
        'By a password, by a mailed code with its address, or by a mailed link\'s token; a code or link confirms the address too. A ' +
        'wrong password and an unknown e-mail get one answer (401 `invalidCredentials`), and so does every code that opens nothing ' +
        '(401 `invalidCode`). The first confirmation of an address keeps the password only for whoever shows they chose it (the code ' +
        'typed with the password, or the link followed with the sign-up\'s session). 429 past 5 failed passwords per e-mail in 15 ' +
        'minutes, 10 wrong codes per e-mail in an hour, the sign-ins allowed per client address, or a full password hashing queue.',
      tag: 'Sessions',
      session: 'optional',
      body: 'SignInRequest',
      answers: { 201: signedIn },
      errors: {
        400: ['invalidField', 'tokenInvalid', 'tokenUsed', 'tokenExpired'],
        401: ['invalidCredentials', 'invalidCode'],
        403: ['memberBlocked', 'emailNotConfirmed'],
        429: ['rateLimited'],
      },
    }),
  },
  [site('/sessions/current')]: {
    delete: operation({
      operationId: 'signOut',
      summary: 'Sign out',
      description: 'Revokes the request\'s session at once. 204 also when the token was already expired or revoked, another site\'s, or not sent.',
      tag: 'Sessions',
      session: 'optional',
      answers: { 204: { description: 'Signed out.' } },
    }),
  },
  [site('/sign-in-codes')]: {
    post: mailRequest('requestSignInCode', 'Mail a sign-in code', 'Mails a 6-digit code (good for 10 minutes, 5 tries) and a sign-in link.'),
  },
  [site('/password-reset')]: {
    post: mailRequest('requestPasswordReset', 'Mail a password reset link', 'Mails a link that sets a new password, good for an hour.'),
  },
  [site('/password-reset/complete')]: {
    post: operation({
      operationId: 'completePasswordReset',
      summary: 'Set a new password from a mailed link',
      description:
        'The new password is set, the address confirmed, every session of the member signed out and a new one opened, a ' +
        '`passwordReset` member event written. 429 when the password hashing queue is full.',
      tag: 'Sessions',
      body: 'PasswordResetRequest',
      answers: { 201: signedIn },
      errors: { 400: ['invalidField', 'tokenInvalid', 'tokenUsed', 'tokenExpired'], 403: ['memberBlocked'], 429: ['rateLimited'] },
    }),
  },
};
