/**
 * The member API's error body (errors.ts: the Admin API's shape with the member codes of
 * src/contract/member.ts) and what each code means, in the words of docs/member-api.md, so each
 * error response can say when it is sent.
 */
import type { MemberApiErrorCode } from '../../../contract/member';
import { object, oneOfValues, schemaRef, str, type Schema } from '../../openapi/schema-helpers';

/** When each code is sent; the keys are every MemberApiErrorCode (the type says so). */
export const CODE_MEANINGS: Record<MemberApiErrorCode, string> = {
  invalidBody: 'the body is not JSON, or not the object the route takes (over 64 KiB: 413).',
  invalidField:
    'a field, query parameter or path id is missing or wrong (text with a control character or a lone surrogate, ' +
    'an id not written as digits alone); `path` names it (`email`, `customFields.3`, `id`, …), one error per bad field.',
  invalidMetadata:
    'the metadata update is not an object, is nested deeper than 16 levels, or holds a number that is not finite ' +
    '(`1e999`) or a string or key with a control character; nothing changes.',
  metadataTooLarge: 'the metadata after the update would exceed 16 KiB of JSON; nothing changes.',
  unauthenticated: 'the bearer token is missing, unknown, expired, revoked or another site\'s, or the member is blocked.',
  invalidCredentials:
    'a wrong password or an unknown e-mail (one answer for both); on the account routes a wrong current password (`path` `password`).',
  invalidCode:
    'a mailed code that opens nothing (`path` `code`): wrong, past its time, used, tried 5 times, or typed with an address ' +
    'that has none; signed in (`POST /me/email/confirm`) the message says how many tries are left.',
  codeExpired: 'no live code for the e-mail change (none asked for, past its time, used, or tried 5 times): ask for a new one.',
  tokenInvalid: 'a mailed link\'s token that names nothing: cut short, or made void by a later password or address change (`path` `token`).',
  tokenUsed: 'a mailed link used already: each works once.',
  tokenExpired: 'a mailed link past its time (a reset link lasts an hour, a sign-in link 10 minutes, a confirmation a day).',
  originNotAllowed:
    'the request\'s `Origin` is not the site\'s domain or one of its subdomains (loopback too for the demo site); the message names the domain.',
  memberBlocked: 'correct credentials, or a mailed code or link, of a blocked member.',
  emailNotConfirmed: 'a password sign-in of an unconfirmed member on a site that lets members in only once confirmed (a new code is mailed).',
  noAccess: 'none of the member\'s active memberships is on a plan that opens the item.',
  notFound: 'no site with that subdomain, or no such route, or nothing of this site and member with the id named (`path` says which).',
  methodNotAllowed: 'a known path with another method; `Allow` names the ones it takes.',
  emailTaken: 'the address is a member\'s already (sign-up on a site that lets unconfirmed members in; an e-mail change confirmed after someone took it).',
  alreadyMember: 'a plan sign-up to a plan the member is on (or joining in another request); the message names its content URL.',
  paymentPending: 'the bank still waits for the member (3-D Secure not finished), or another request is billing or changing the membership.',
  notCancellable: 'cancelling a membership that is not a running subscription.',
  notChangeable: 'a plan change the rules refuse (decision 0036): an instalment plan, not a subscription, the same plan, another currency, a membership not running.',
  notDue: 'paying now for a membership that owes nothing now.',
  paymentDeclined: 'the card was refused as it was saved, or its charge was declined, or the bank did not confirm the payment.',
  rateLimited: 'too many attempts (per e-mail, per client address or per member) or the password hashing queue is full: wait `Retry-After` seconds.',
  pictureTooLarge: 'the picture is larger than 2 MiB (2,097,152 bytes), declared or counted as it arrived; nothing changes.',
  unsupportedPicture:
    'the body is not a JPEG, PNG or WebP image by its first bytes (an SVG, a GIF, an HTML page…), or it has a `Content-Type` other than ' +
    '`image/jpeg`, `image/png`, `image/webp` or `application/octet-stream`; nothing changes.',
  invalidPicture: 'the picture is empty, cut short or damaged, or declares more than 25 million pixels; nothing changes.',
  internalError: 'the service failed to answer (a fault of its own, logged); trying again later may succeed.',
};

export const MEMBER_ERROR_CODES = Object.keys(CODE_MEANINGS) as MemberApiErrorCode[];

const ApiError = object(
  {
    path: str('`base` for errors not tied to one field, else the field (`email`, `customFields.3`), query parameter or path id concerned.'),
    code: schemaRef('ErrorCode'),
    message: str('Human-readable, in English.'),
  },
  ['path', 'code', 'message'],
);

export const errorSchemas: Record<string, Schema> = {
  ErrorBody: object({ errors: { type: 'array', minItems: 1, items: schemaRef('ApiError') } }, ['errors'], 'Every failure answers this body.'),
  ApiError,
  ErrorCode: oneOfValues(MEMBER_ERROR_CODES, 'Machine-readable; the widget branches on it.'),
};
