/**
 * The signed-in member as the widget sees them (MemberInfo, Membership, CustomSignupField of
 * src/contract/member.ts, field for field) and what signing in and the mail flows answer.
 * Objects are closed; an optional field is omitted, never `null`.
 */
import { MEMBERSHIP_STATUSES } from '../../../contract/admin';
import type { WidgetPlanType } from '../../../contract/member';
import { dateTime, id, object, oneOfValues, schemaRef, str, taggedUnion, type Schema } from '../../openapi/schema-helpers';

export const WIDGET_PLAN_TYPES = ['free', 'one_time_payment', 'subscription', 'multi_payment'] as const satisfies readonly WidgetPlanType[];

const Membership = object(
  {
    id: id('The membership\'s id (the Admin API\'s too).'),
    planId: id('The plan\'s id.'),
    publicPlanId: str('The plan\'s public id, as `?svcopen=/member/plans/<publicPlanId>` names it.'),
    name: str('The plan\'s name.'),
    type: oneOfValues(WIDGET_PLAN_TYPES, 'The plan\'s kind (snake_case, unlike the Admin API).'),
    createdAt: dateTime('When the member joined the plan.'),
    status: oneOfValues(MEMBERSHIP_STATUSES, 'A membership stored `active` but past its expiry date reads `expired`.'),
    expiresOn: dateTime('A membership that is not a subscription and ends at a date.'),
    cancelsOn: dateTime('A subscription cancelled at the end of its billing period ends then.'),
    billingPeriodEnd: dateTime('When the next charge is due, while one is: an active subscription not cancelled, or an instalment plan not paid off.'),
    nextPlanId: id('A subscription changed to a cheaper plan moves to this plan at `billingPeriodEnd` (decision 0036).'),
    nextPlanName: str('That plan\'s name.'),
    paymentFailure: { type: 'boolean', description: 'The last renewal or instalment failed and is retried.' },
    welcomeUrl: str('Where a new member of the plan is sent (the site\'s home page when the plan names none).'),
    contentUrl: str('The plan\'s content page (the site\'s home page when the plan names none).'),
  },
  ['id', 'planId', 'publicPlanId', 'name', 'type', 'createdAt', 'status', 'paymentFailure', 'welcomeUrl', 'contentUrl'],
  'One plan the member holds or held (spec 2.7).',
);

const SignupFieldOption = object({ label: str('What the form shows.'), value: str('What is stored and read back.') }, ['label', 'value']);
const options: Schema = { type: 'array', items: schemaRef('SignupFieldOption') };

/** One branch of CustomSignupField: its `type`, and the value a field of that type holds. */
const customField = (type: string, value: Schema, withOptions = false): Schema =>
  object(
    { id: id('The field\'s id.'), type: { const: type }, required: { type: 'boolean' }, value, ...(withOptions && { options }) },
    ['id', 'type', 'required', 'value', ...(withOptions ? ['options'] : [])],
    `A \`${type}\` field with the member's answer (its type's empty value when never filled in).`,
  );

const text = { type: 'string' };
const customFieldSchemas: Record<string, Schema> = {
  CustomTextField: customField('text', text),
  CustomTextareaField: customField('textarea', text),
  CustomSelectField: customField('select', text, true),
  CustomMultipleSelectField: customField('multiple-select', { type: 'array', items: text }, true),
  CustomCheckboxField: customField('checkbox', { type: 'boolean' }),
  CustomSignupField: taggedUnion(
    'type',
    {
      text: 'CustomTextField',
      textarea: 'CustomTextareaField',
      select: 'CustomSelectField',
      'multiple-select': 'CustomMultipleSelectField',
      checkbox: 'CustomCheckboxField',
    },
    'One of the site\'s custom sign-up fields with the member\'s answer (spec 2.7).',
  ),
};

const MemberInfo = object(
  {
    id: id('The member\'s id (the Admin API\'s too).'),
    name: str('First and last name joined by a space; `""` when neither is given.'),
    firstName: str('`""` when not given.'),
    lastName: str('`""` when not given.'),
    email: str('The address the member signs in with, lower-cased.'),
    profileImageUrl: str('The member\'s picture, or an SVG of their initials as a `data:` URL.'),
    memberships: { type: 'array', items: schemaRef('Membership'), description: 'Every plan held or held before: `status` says which count now.' },
    customSignupFields: { type: 'array', items: schemaRef('CustomSignupField') },
  },
  ['id', 'name', 'firstName', 'lastName', 'email', 'profileImageUrl', 'memberships', 'customSignupFields'],
  'The signed-in member as the widget sees them (spec 2.7).',
);

const SessionResponse = object(
  {
    token: {
      type: 'string',
      pattern: '^svc_session_[A-Za-z0-9_-]{43}$',
      description: 'The bearer token for this site only: send it as `Authorization: Bearer …`.',
    },
    expiresAt: dateTime('Sessions slide: each use moves this 7 days ahead, up to 30 days after sign-in.'),
    memberInfo: schemaRef('MemberInfo'),
    registered: { const: true, description: 'This sign-in completes a registration (the sign-up\'s own code or link where sign-up signed nobody in).' },
  },
  ['token', 'expiresAt', 'memberInfo'],
  'A new session and the member it is for.',
);

const MailSentResponse = object(
  { email: str('The address the mail went to (lower-cased).'), mailSent: { const: true } },
  ['email', 'mailSent'],
  'The same answer whether or not the address is a member\'s, and whether or not a send limit held the mail back.',
);

export const accountSchemas: Record<string, Schema> = {
  MemberInfo,
  Membership,
  SignupFieldOption,
  ...customFieldSchemas,
  SessionResponse,
  MailSentResponse,
  EmailChangedResponse: object({ email: str('The address now in use.') }, ['email'], 'An e-mail change confirmed by its mailed link.'),
  MemberMetadata: {
    type: 'object',
    description: 'The member\'s metadata (spec 2.8, decision 0009): any JSON object, at most 16 KiB and 16 levels; `{}` at first.',
  },
};
