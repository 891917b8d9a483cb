/**
 * What a visitor reads of a site before signing in: its settings (SiteConfig), the plans open
 * for sign-up (PlanOffer) and protected content (ContentItem, ContentAccessPlans), field for field
 * with src/contract/member.ts.
 */
import { CONTENT_NODE_TYPES, INTERVAL_UNITS } from '../../../contract/admin';
import { CONTENT_VIEWS, SIGNUP_FIELD_TYPES, THEME_COLOUR, THEME_FONT, THEME_FONT_MAX, WIDGET_LOCALES } from '../../../contract/member';
import { currency, dateTime, id, object, oneOfValues, schemaRef, str, taggedUnion, type Schema } from '../../openapi/schema-helpers';
import { WIDGET_PLAN_TYPES } from './account-schemas';

const cents = (description?: string): Schema => ({ type: 'integer', minimum: 0, ...(description !== undefined && { description }) });
const colour: Schema = { type: 'string', pattern: THEME_COLOUR.source, description: '`#rgb` or `#rrggbb`.' };

// ------------------------------------------------------------------------------------ settings

const SiteTheme = object(
  {
    accent: { ...colour, description: 'Buttons, links and focus rings.' },
    text: colour,
    background: colour,
    radius: { type: 'integer', minimum: 0, maximum: 32, description: 'Corner radius in px.' },
    fontFamily: { type: 'string', pattern: THEME_FONT.source, maxLength: THEME_FONT_MAX, description: 'A CSS font-family list.' },
    colorScheme: oneOfValues(['auto', 'light', 'dark']),
    logoUrl: str('An https address or a path on the site, shown beside its name.'),
    dark: object({ accent: colour }, [], 'The dark scheme\'s own accent.'),
  },
  [],
  'The site\'s colours and shapes for the dialog (the site file\'s `theme:`).',
);

const StripePayments = object(
  {
    processor: { const: 'stripe' },
    publishableKey: str('The account\'s publishable key (`pk_live_…`, `pk_test_…`): public by design.'),
    scriptUrl: str('Where the widget loads Stripe.js from.'),
  },
  ['processor', 'publishableKey', 'scriptUrl'],
  'A site that takes payments through its Stripe account: the widget sends the service only the payment method Stripe.js makes.',
);

const afterRegistration: Record<string, Schema> = {
  AfterRegistrationStay: object({ action: { const: 'stay' } }, ['action'], 'The dialog closes on the page.'),
  AfterRegistrationPlans: object({ action: { const: 'plans' } }, ['action'], 'The site\'s public plans are offered.'),
  AfterRegistrationRedirect: object({ action: { const: 'redirect' }, url: str() }, ['action', 'url'], 'The browser goes to `url`.'),
  AfterRegistration: taggedUnion(
    'action',
    { stay: 'AfterRegistrationStay', plans: 'AfterRegistrationPlans', redirect: 'AfterRegistrationRedirect' },
    'What follows a registration that names no plan.',
  ),
};

const SignupFieldDefinition = {
  ...object(
    {
      id: id('The field\'s id: the key of its answer in `customFields`.'),
      type: oneOfValues(SIGNUP_FIELD_TYPES),
      label: str(),
      required: { type: 'boolean', description: 'A required checkbox is a consent box: it must be `true`.' },
      options: { type: 'array', items: schemaRef('SignupFieldOption') },
    },
    ['id', 'type', 'label', 'required'],
    'A custom sign-up field as the site defines it.',
  ),
  allOf: [{ if: { properties: { type: { enum: ['select', 'multiple-select'] } }, required: ['type'] }, then: { required: ['options'] } }],
};

const SiteConfig = object(
  {
    subdomain: str(),
    name: str(),
    domain: str('The site\'s domain: its pages, and those of its subdomains, may call this API.'),
    currency,
    locale: oneOfValues(WIDGET_LOCALES, 'The language the widget speaks on the site (ISO 639-1).'),
    checkboxLabels: object({ yes: str(), no: str() }, ['yes', 'no'], 'How a checkbox field reads as text in the site\'s language.'),
    signupFields: { type: 'array', items: schemaRef('SignupFieldDefinition') },
    memberMenu: { type: 'boolean', description: 'A signed-in member lands on the member menu where the account screen would show.' },
    afterRegistration: schemaRef('AfterRegistration'),
    theme: schemaRef('SiteTheme'),
    payments: schemaRef('StripePayments'),
  },
  ['subdomain', 'name', 'domain', 'currency', 'locale', 'checkboxLabels', 'signupFields', 'memberMenu', 'afterRegistration'],
  'What the widget needs before anyone signs in. `theme` only when the site has one; `payments` only on a Stripe site.',
);

// --------------------------------------------------------------------------------------- plans

const ChargeAmounts = object(
  { subTotalCents: cents('Before tax.'), taxCents: cents(), grandTotalCents: cents('Tax included.') },
  ['subTotalCents', 'taxCents', 'grandTotalCents'],
  'Money of one charge, in the currency\'s minor units.',
);

const Interval = object(
  { count: { type: 'integer', minimum: 1 }, unit: oneOfValues(INTERVAL_UNITS) },
  ['count', 'unit'],
  'Every `count` `unit`s.',
);

const PlanOffer = object(
  {
    id: id(),
    publicId: str('What a sign-up link names (`?svcopen=/member/plans/<publicId>`).'),
    name: str(),
    description: str('Sanitized rich text (HTML).'),
    type: oneOfValues(WIDGET_PLAN_TYPES),
    currency: { ...currency, description: 'Lower-case ISO 4217; absent on free plans.' },
    dueNow: { ...schemaRef('ChargeAmounts'), description: 'What signing up now charges (0 on free plans and during a trial).' },
    recurring: object(
      {
        amountCents: cents('Each later charge, tax included.'),
        subTotalCents: cents(),
        taxCents: cents(),
        interval: schemaRef('Interval'),
        paymentCount: { type: 'integer', minimum: 2, description: 'Instalment plans: how many payments in all, the first included.' },
        firstChargeAt: dateTime('When the first later charge is due, for someone signing up now.'),
      },
      ['amountCents', 'subTotalCents', 'taxCents', 'interval', 'firstChargeAt'],
      'Subscriptions and instalment plans: each later charge.',
    ),
    trialDays: { type: 'integer', minimum: 1 },
    signupFeeCents: cents(),
    taxPercentage: { type: 'number', minimum: 0, maximum: 100 },
    taxDescription: str('Sanitized rich text (HTML).'),
    expiresAt: dateTime('When access would end for someone signing up now.'),
    billingPeriodEnd: dateTime('When the charge after the first is due, for someone signing up now.'),
    billingDate: object(
      { day: { type: 'integer', minimum: 1, maximum: 31 }, month: { type: 'integer', minimum: 1, maximum: 12 } },
      ['day'],
      'Subscriptions billed on a fixed day (`month` for yearly ones).',
    ),
    welcomeUrl: str('The page the owner named for new members; absent, a new member stays on the page they joined from.'),
    highlight: { const: true, description: 'The plan the owner recommends.' },
    features: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'What the plan includes, a plain-text line each.' },
  },
  ['id', 'publicId', 'name', 'type', 'dueNow'],
  'A plan as the sign-up screens show it: what it costs now and later, and when access ends (decision 0013).',
);

// ------------------------------------------------------------------------------------- content

const ContentItem = object(
  {
    id: id(),
    name: str(),
    type: oneOfValues(CONTENT_NODE_TYPES),
    space: object({ id: id(), name: str() }, ['id', 'name'], 'The space holding the item.'),
    view: oneOfValues(CONTENT_VIEWS, 'The view used: `article` only `popup`, `file` only `download`, the others either.'),
    url: str('Where the file, recording or page is: an http(s) address or a path on the site; absent on articles.'),
    body: str('An article\'s text: sanitized HTML.'),
  },
  ['id', 'name', 'type', 'space', 'view'],
  'A protected content item the member may see.',
);

const ContentAccessPlans = object(
  { name: str('The item\'s name.'), plans: { type: 'array', items: schemaRef('PlanOffer') } },
  ['name', 'plans'],
  'The enabled public plans that open an item, priced as `GET /plans` prices them: the widget\'s paywall.',
);

export const siteSchemas: Record<string, Schema> = {
  SiteConfig,
  SiteTheme,
  StripePayments,
  ...afterRegistration,
  SignupFieldDefinition,
  PlanOffer,
  ChargeAmounts,
  Interval,
  ContentItem,
  ContentAccessPlans,
};
