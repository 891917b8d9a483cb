/**
 * What the member API's routes read from their bodies (the request types of
 * src/contract/member.ts and what the routes read beyond them, such as `returnTo`). The service
 * checks each field itself and answers 400 `invalidField` naming it; these schemas say what a
 * well-formed body holds. Closed: a field not listed is not read (PATCH /me refuses it).
 */
import { MAIL_TOKEN_SHAPE } from '../../../contract/member';
import { PASSWORD_MAX, PASSWORD_MIN, NAME_MAX } from '../signup';
import { described, object, type Schema } from '../../openapi/schema-helpers';

const email: Schema = { type: 'string', maxLength: 254, description: 'One plain address (the grammar of `<input type=email>`), with a dot in its domain.' };
const password: Schema = { type: 'string', minLength: 1, maxLength: PASSWORD_MAX };
const newPassword: Schema = { type: 'string', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX };
const name: Schema = { type: 'string', maxLength: NAME_MAX, description: 'Trimmed; no control or invisible characters. Empty clears it (PATCH /me).' };
const returnTo: Schema = {
  type: 'string',
  description: 'The page asking: mailed links lead back to it when it is one of the site\'s own pages, else to the site\'s home page.',
};
const mailToken: Schema = { type: 'string', pattern: MAIL_TOKEN_SHAPE.source, description: 'The token of the mailed link (its `svcopen` path\'s last part).' };
const code: Schema = { type: 'string', description: 'The 6-digit code from the mail; spaces and hyphens are ignored.' };
const processorId = (description: string): Schema => ({ type: 'string', pattern: '^[A-Za-z0-9_]{3,255}$', description });
const paymentMethodId = processorId(
  'The payment method the processor made of the card: Stripe.js\'s (`pm_…`), or `POST /test-payment-methods`\'s (`pm_test_…`). Without it, the saved card pays.',
);
const customFields: Schema = {
  type: 'object',
  description: 'Answers keyed by field id (`GET /config`): text, one option value, a list of option values, or a boolean, by the field\'s type.',
  propertyNames: { pattern: '^[0-9]+$' },
  additionalProperties: {
    anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'boolean' }],
  },
};

export const requestSchemas: Record<string, Schema> = {
  SignUpRequest: object(
    { email, password: described(newPassword, 'Left out: an account without a password, which signs in by mailed codes.'), firstName: name, lastName: name, customFields, returnTo },
    ['email'],
  ),
  PasswordSignIn: object({ email, password, returnTo }, ['email', 'password'], 'A password sign-in.'),
  CodeSignIn: object(
    { email, code, password: described(password, 'The password typed before the code (at sign-up): sent with it, the first confirmation keeps it.') },
    ['email', 'code'],
    'A sign-in by the mailed code.',
  ),
  LinkSignIn: object({ token: mailToken }, ['token'], 'A sign-in by the mailed link (with the bearer token of the sign-up\'s session, when the browser has it).'),
  SignInRequest: {
    description: 'A password, a mailed code with its address, or a mailed link\'s token.',
    oneOf: [{ $ref: '#/components/schemas/PasswordSignIn' }, { $ref: '#/components/schemas/CodeSignIn' }, { $ref: '#/components/schemas/LinkSignIn' }],
  },
  MailRequest: object({ email, returnTo }, ['email']),
  PasswordResetRequest: object({ token: mailToken, newPassword }, ['token', 'newPassword']),
  AccountEdit: object({ firstName: name, lastName: name, customFields }, [], 'Keys left out stay as they are; `email` or `password` here is a 400.'),
  EmailChangeRequest: object({ email, password: described(password, 'The current password.'), returnTo }, ['email', 'password']),
  EmailChangeCode: object({ code }, ['code']),
  EmailChangeLink: object({ token: mailToken }, ['token']),
  PasswordChange: object({ password: described(password, 'The current password.'), newPassword }, ['password', 'newPassword']),
  PlanSignUpRequest: object(
    { planPublicId: { type: 'string', minLength: 1, description: 'The plan\'s public id or its key in the site file.' }, paymentMethodId },
    ['planPublicId'],
    'Card fields (`cardNumber`, …) are refused: the card goes to the processor from the page.',
  ),
  PlanChangeRequest: object(
    { plan: { type: 'string', minLength: 1, description: 'The plan to change to: its public id or key.' }, paymentMethodId },
    ['plan'],
  ),
  IntentConfirmation: object({ intentId: processorId('The `intentId` the 202 answered.') }, ['intentId']),
  PaymentMethodRequest: object({ paymentMethodId }, ['paymentMethodId'], 'Card fields (`cardNumber`, …) are refused: the card goes to the processor from the page.'),
  TestCard: object(
    {
      cardNumber: { type: 'string', description: 'A test card number (docs/test-cards.md); spaces are fine.' },
      cardExpiry: { type: 'string', description: '`MM/YY`, in the future.' },
      cardCvc: { type: 'string', description: '3 or 4 digits.' },
    },
    ['cardNumber', 'cardExpiry', 'cardCvc'],
  ),
  TestPaymentAnswer: object(
    {
      clientSecret: { type: 'string', description: 'The client secret the 202 answered.' },
      approve: { type: 'boolean', description: 'The member\'s answer to the bank\'s question.' },
    },
    ['clientSecret', 'approve'],
  ),
  MetadataPatch: {
    type: 'object',
    description: 'Merged at every level; `null` removes a key; arrays and scalars replace what was there (decision 0009).',
  },
};
