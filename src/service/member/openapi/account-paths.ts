/**
 * The signed-in member's account (../me-routes.ts, ../account-routes.ts, ../email-change-routes.ts):
 * who they are, their names and custom fields, their address and password, their metadata.
 */
import type { OpenApiObject } from '../../openapi/document';
import { MAX_PICTURE_PIXELS, PICTURE_SIZE, PICTURES_PER_MEMBER } from '../pictures/limits';
import { operation } from './operation';

const site = (path: string) => `/sites/{subdomain}${path}`;

const memberInfo = (description: string) => ({ description, schema: 'MemberInfo', noStore: true });
const metadata = (description: string, noStore = false) => ({ description, schema: 'MemberMetadata', noStore });
/** A wrong current password is counted as a failed sign-in (5 in 15 minutes per e-mail, then 429). */
const currentPasswordErrors = { 401: ['invalidCredentials' as const], 429: ['rateLimited' as const] };

export const accountPaths: Record<string, Record<string, OpenApiObject>> = {
  [site('/me')]: {
    get: operation({
      operationId: 'getMe',
      summary: 'The signed-in member',
      description: 'The member, their memberships and custom fields (spec 2.7); a membership stored `active` but past its expiry date reads `expired`.',
      tag: 'Account',
      session: 'required',
      answers: { 200: memberInfo('The member.') },
    }),
    patch: operation({
      operationId: 'updateMe',
      summary: 'Change names and custom fields',
      description:
        'Keys left out stay; an empty name or optional field is cleared; required fields keep the sign-up rules. `email` or ' +
        '`password` here is a 400 naming the route to use (`PUT /me/email`, `PUT /me/password`).',
      tag: 'Account',
      session: 'required',
      body: 'AccountEdit',
      answers: { 200: memberInfo('The member after the change.') },
      errors: { 400: ['invalidField'] },
    }),
  },
  [site('/me/email')]: {
    put: operation({
      operationId: 'changeEmail',
      summary: 'Ask to change the address',
      description:
        'Nothing changes until the new address confirms it, by the mailed code (`POST /me/email/confirm`) or link ' +
        '(`POST /email-changes`). A taken address gets the same 202 (its owner is told, nothing changes); the address the member ' +
        'has answers 200. 429 past the mails allowed per client address or member (10 an hour), or after 5 wrong current passwords.',
      tag: 'Account',
      session: 'required',
      body: 'EmailChangeRequest',
      answers: {
        200: memberInfo('The address given is the member\'s already: nothing to do.'),
        202: { description: 'The code and link are on their way to the new address.', schema: 'MailSentResponse' },
      },
      errors: { 400: ['invalidField'], ...currentPasswordErrors },
    }),
  },
  [site('/me/email/confirm')]: {
    post: operation({
      operationId: 'confirmEmailChange',
      summary: 'Confirm an address change by its mailed code',
      description:
        'The member moves to the new address; the old one is told, every other session of the member signed out (this one stays), ' +
        'an `emailChanged` event written. 409 `emailTaken` when someone took the address meanwhile.',
      tag: 'Account',
      session: 'required',
      body: 'EmailChangeCode',
      answers: { 200: memberInfo('The member with the new address.') },
      // The token codes: the code's token made void, used or expired between its check and the change (a race).
      errors: { 400: ['invalidField', 'tokenInvalid', 'tokenUsed', 'tokenExpired'], 401: ['invalidCode', 'codeExpired'], 409: ['emailTaken'] },
    }),
  },
  [site('/email-changes')]: {
    post: operation({
      operationId: 'confirmEmailChangeByLink',
      summary: 'Confirm an address change by its mailed link',
      description: 'The same change as `POST /me/email/confirm`, from any browser: the link is the proof. The request\'s session stays when it is the member\'s.',
      tag: 'Account',
      session: 'optional',
      body: 'EmailChangeLink',
      answers: { 200: { description: 'The address now in use.', schema: 'EmailChangedResponse' } },
      errors: { 400: ['tokenInvalid', 'tokenUsed', 'tokenExpired'], 403: ['memberBlocked'], 409: ['emailTaken'] },
    }),
  },
  [site('/me/password')]: {
    put: operation({
      operationId: 'changePassword',
      summary: 'Change the password',
      description: 'With the current password; every other session of the member is signed out.',
      tag: 'Account',
      session: 'required',
      body: 'PasswordChange',
      answers: { 204: { description: 'Changed.' } },
      errors: { 400: ['invalidField'], ...currentPasswordErrors },
    }),
  },
  [site('/me/picture')]: {
    put: operation({
      operationId: 'uploadPicture',
      summary: 'Upload a profile picture',
      description:
        'The image\'s bytes are the body: JPEG, PNG or WebP by its first bytes (a `Content-Type`, when sent, only has to be one of ' +
        'those or `application/octet-stream`), at most 2 MiB, at most ' + `${MAX_PICTURE_PIXELS.toLocaleString('en-US')} pixels. ` +
        `It is decoded, turned upright and encoded anew as WebP within ${PICTURE_SIZE} × ${PICTURE_SIZE} pixels, so nothing of the file ` +
        'is kept but its pixels (no EXIF, no GPS position); `profileImageUrl` is then its address (`GET /pictures/{file}`), and the ' +
        `picture it replaces is deleted unless another member has it. ${PICTURES_PER_MEMBER.limit} uploads an hour per member, ` +
        'refused ones included (then 429). A refused upload changes nothing.',
      tag: 'Account',
      session: 'required',
      upload: { types: ['image/jpeg', 'image/png', 'image/webp'], description: 'The picture\'s bytes, as the file holds them.' },
      answers: { 200: memberInfo('The member with the picture: `profileImageUrl` is its URL.') },
      errors: { 400: ['invalidPicture'], 413: ['pictureTooLarge'], 415: ['unsupportedPicture'], 429: ['rateLimited'] },
    }),
    delete: operation({
      operationId: 'removePicture',
      summary: 'Remove the profile picture',
      description:
        'The member has no picture again (nor a `profileImageUrl` the site gave them): `profileImageUrl` is their initials\' ' +
        '`data:` URL. The picture is deleted unless another member has it. Without one, nothing changes.',
      tag: 'Account',
      session: 'required',
      answers: { 200: memberInfo('The member without a picture.') },
    }),
  },
  [site('/me/metadata')]: {
    get: operation({
      operationId: 'getMetadata',
      summary: 'The member\'s metadata',
      description: 'Any JSON object the site keeps for the member (spec 2.8); `{}` at first.',
      tag: 'Metadata',
      session: 'required',
      answers: { 200: metadata('The metadata.', true) },
    }),
    patch: operation({
      operationId: 'updateMetadata',
      summary: 'Merge into the metadata',
      description:
        'Merged at every level; `null` removes a key; arrays and scalars replace what was there (decision 0009). 400 ' +
        '`invalidMetadata` and 413 `metadataTooLarge` change nothing.',
      tag: 'Metadata',
      session: 'required',
      body: 'MetadataPatch',
      answers: { 200: metadata('The metadata after the merge.') },
      errors: { 400: ['invalidMetadata'], 413: ['metadataTooLarge'] },
    }),
    delete: operation({
      operationId: 'clearMetadata',
      summary: 'Clear the metadata',
      description: 'Every key removed: the metadata is `{}` again, as before any was set.',
      tag: 'Metadata',
      session: 'required',
      answers: { 200: { description: 'The metadata, now `{}`.', schema: { type: 'object', maxProperties: 0 } } },
    }),
  },
};
