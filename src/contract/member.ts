/**
 * Wire types of the member API (`/member/v1`, what the widget calls) and of what the widget
 * hands to pages (spec 2.7, 2.8, 6.1). One definition each: the service serializes to these,
 * the widget reads and re-dispatches them, and dist/widgets.d.ts documents them.
 * Optional fields are omitted when they have no value; `null` never appears on the wire.
 */

export type IsoDateTime = string;

/** Widget membership types are snake_case (spec 2.7), unlike the Admin API's camelCase. */
export type WidgetPlanType = 'free' | 'one_time_payment' | 'subscription' | 'multi_payment';

/** One plan the member belongs to (spec 2.7, "Membership (widget)"). */
export interface Membership {
  /** The membership's id (the Admin API's too). */
  id: number;
  /** The plan's numeric id. */
  planId: number;
  /** The plan's public id, as `?svcopen=/member/plans/<publicPlanId>` and `data-svc-show` name it. */
  publicPlanId: string;
  /** The plan's name. */
  name: string;
  /** The plan's kind: `free`, `one_time_payment`, `subscription` or `multi_payment`. */
  type: WidgetPlanType;
  /** When the member joined the plan. */
  createdAt: IsoDateTime;
  /** `active`, `cancelled` or `expired`. */
  status: string;
  /** Set when a non-subscription membership is due to expire at a date. */
  expiresOn?: IsoDateTime;
  /** Set when a subscription is cancelled at the end of its billing period. */
  cancelsOn?: IsoDateTime;
  /** When the next charge is due on a subscription or an uncompleted multi-payment plan. */
  billingPeriodEnd?: IsoDateTime;
  /** A subscription changed to a cheaper plan moves to it at `billingPeriodEnd` (decision 0036): that plan's id… */
  nextPlanId?: number;
  /** …and its name. */
  nextPlanName?: string;
  /** The last renewal or instalment failed and is retried (the member may pay it now, or change the card). */
  paymentFailure: boolean;
  /** Where a new member of the plan is sent after signing up (the site's home page when the plan names none). */
  welcomeUrl: string;
  /** The plan's content page: where a member already on the plan is sent from its sign-up screen. */
  contentUrl: string;
}

export const SIGNUP_FIELD_TYPES = ['text', 'textarea', 'select', 'multiple-select', 'checkbox'] as const;
export type SignupFieldType = (typeof SIGNUP_FIELD_TYPES)[number];

/** One choice of a select field: what the form shows, and what is stored. */
export interface SignupFieldOption {
  /** What the form shows. */
  label: string;
  /** What is stored and read back. */
  value: string;
}

/** The value a custom sign-up field holds, by its type. */
export type SignupFieldValue = string | string[] | boolean;

/** One of the member's custom fields (spec 2.7, "CustomSignupField (widget)"). */
export type CustomSignupField =
  | { id: number; type: 'text' | 'textarea'; required: boolean; value: string }
  | { id: number; type: 'select'; required: boolean; value: string; options: SignupFieldOption[] }
  | { id: number; type: 'multiple-select'; required: boolean; value: string[]; options: SignupFieldOption[] }
  | { id: number; type: 'checkbox'; required: boolean; value: boolean };

/**
 * The languages the widget's dialog speaks (its catalogues, src/widget/modal/messages.ts): the
 * locales a site may have. A test keeps the two lists the same.
 */
export const WIDGET_LOCALES = ['en', 'de'] as const;
export type WidgetLocale = (typeof WIDGET_LOCALES)[number];

/** The logged-in member as the widget sees them (spec 2.7). */
export interface MemberInfo {
  /** The member's id (the Admin API's too). */
  id: number;
  /** Full name: first and last name joined by a space. */
  name: string;
  /** '' when not given. */
  firstName: string;
  /** '' when not given. */
  lastName: string;
  /** The address the member logs in with (lower-cased). */
  email: string;
  /** The member's picture, or an SVG of their initials (a `data:` URL) when they have none. */
  profileImageUrl: string;
  /** Every plan the member holds or held: check `status` for the ones that count now. */
  memberships: Membership[];
  /** The site's own sign-up questions with the member's answers. */
  customSignupFields: CustomSignupField[];
}

/** A custom sign-up field as the site defines it: what the sign-up form shows. */
export interface SignupFieldDefinition {
  id: number;
  type: SignupFieldType;
  label: string;
  required: boolean;
  /** Present for `select` and `multiple-select`. */
  options?: SignupFieldOption[];
}

/** GET /member/v1/sites/{subdomain}/config: what the widget needs before anyone logs in. */
export interface SiteConfig {
  subdomain: string;
  name: string;
  domain: string;
  /** ISO 4217, lowercase. */
  currency: string;
  /** ISO 639-1. */
  locale: string;
  /** How a checkbox field reads as text in the site's language: "Yes" and "No" for `en`. */
  checkboxLabels: { yes: string; no: string };
  signupFields: SignupFieldDefinition[];
  /** The site shows a member menu to a logged-in member where it would show the account screen. */
  memberMenu: boolean;
  /** What happens after registering with no plan named (spec 4.1, the svcopen table). */
  afterRegistration: AfterRegistration;
  /** The site's colours and shapes for the dialog (the site file's `theme:`); absent: the widget's own. */
  theme?: SiteTheme;
  /**
   * How a member's card reaches the site's processor. Absent: the built-in test processor's own
   * card fields. Stripe: the widget loads Stripe.js from `scriptUrl` (Stripe's own,
   * `https://js.stripe.com/v3/`, unless SVC_STRIPE_JS_URL names a stand-in for tests) when a
   * payment screen opens, and sends the service only the payment method Stripe.js made.
   */
  payments?: StripePayments;
}

/**
 * POST /test-payment-methods (the built-in test processor's card field): the payment method the
 * widget then sends as `paymentMethodId`, as Stripe.js's would be on a Stripe site.
 */
export interface TestPaymentMethod extends SavedCard {
  /** `pm_test_…` */
  id: string;
}

/**
 * POST /test-payment-intents/{intentId} (the built-in test processor's stand-in for the bank's
 * window, 3-D Secure): how the payment ended once the member answered. The sign-up is then
 * confirmed with POST /memberships/confirm, as on a Stripe site.
 */
export interface TestPaymentAuthorization {
  status: 'succeeded' | 'failed';
}

/** A site that takes payments through its own Stripe account: what the browser needs of it. */
export interface StripePayments {
  processor: 'stripe';
  /** The account's publishable key (`pk_live_…`, `pk_test_…`): public by design. */
  publishableKey: string;
  scriptUrl: string;
}

/**
 * The shapes a theme's values may have: they end up in the dialog's stylesheet, so each can say
 * nothing but a colour or a font list. The service checks them when saved, the widget again when read.
 */
export const THEME_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
export const THEME_FONT = /^[\w\s,'"-]+$/;
/** Longest font list, in characters. */
export const THEME_FONT_MAX = 200;

/**
 * How the dialog looks on a site. Colours are `#rgb` or `#rrggbb`. A page's own stylesheet may
 * set the same as custom properties on `[data-svc-modal]` (`--svc-accent`, `--svc-text`,
 * `--svc-background`, `--svc-radius`, `--svc-font-family`), which win over these.
 */
export interface SiteTheme {
  /** Buttons, links and focus rings; the text on it is black or white, whichever reads better. */
  accent?: string;
  /** Text and background of the light scheme (the dark scheme has its own palette). */
  text?: string;
  background?: string;
  /** Corner radius in px, 0-32. */
  radius?: number;
  /** A CSS font-family list, e.g. `"Inter", system-ui, sans-serif`. */
  fontFamily?: string;
  /** `auto` (default) follows the member's system setting; `light` or `dark` fixes it. */
  colorScheme?: 'auto' | 'light' | 'dark';
  /** The site's logo (an https address or a path on the site), shown beside its name at the top of the dialog. */
  logoUrl?: string;
  /** The dark scheme's own accent; without it, the accent lightened until it reads on the dark background (4.5:1). */
  dark?: { accent?: string };
}

/**
 * The after-registration action, a site setting: `stay` closes the dialog on the page,
 * `plans` offers the site's public plans, `redirect` sends the browser to `url`.
 */
export type AfterRegistration = { action: 'stay' } | { action: 'plans' } | { action: 'redirect'; url: string };

export const CONTENT_VIEWS = ['download', 'popup'] as const;
/** How protected content is shown: the browser fetches it, or the dialog shows it. */
export type ContentViewingPreference = (typeof CONTENT_VIEWS)[number];

/**
 * GET /content/{contentId}?view=download|popup: a content item the member may see. `view` is
 * the one used, which differs from the one asked for when the type supports only the other.
 */
export interface ContentItem {
  id: number;
  name: string;
  type: 'article' | 'video' | 'audio' | 'file' | 'link';
  space: { id: number; name: string };
  view: ContentViewingPreference;
  /** Where the file, recording or page is; absent on articles. */
  url?: string;
  /** An article's text: sanitized HTML. */
  body?: string;
}

/** The detail of a 403 `noAccess` on GET /content/{contentId}: the public plans that open it. */
/**
 * GET /content/{contentId}/plans, to anyone: what the widget shows a reader the item is closed to
 * (its paywall): the item's name, and the public plans open to sign-up that include it, priced as
 * GET /plans prices them.
 */
export interface ContentAccessPlans {
  name: string;
  plans: PlanOffer[];
}

/** POST /member/v1/sites/{subdomain}/members. `customFields` is keyed by field id. */
export interface SignUpRequest {
  email: string;
  /** Left out: an account without a password; 202 MailSentResponse, and the mailed code signs in. */
  password?: string;
  firstName?: string;
  lastName?: string;
  customFields?: Record<string, SignupFieldValue>;
}

/**
 * POST /member/v1/sites/{subdomain}/sessions: a password, a mailed 6-digit code (with the
 * e-mail it went to), or the token of a mailed sign-in link.
 */
export type SignInRequest = { email: string; password: string } | { email: string; code: string } | { token: string };

/**
 * Asks for a mail: POST …/password-reset (a reset link) and POST …/sign-in-codes (a code and a
 * sign-in link). `returnTo` is the page the member asked from, where the mailed link leads back
 * to; it must be on the site's domain (or a subdomain of it). Absent: the site's home page.
 */
export interface MailRequest {
  email: string;
  returnTo?: string;
}

/**
 * What asking for a mail answers (202), whether or not the address is a member's and whether
 * or not a send limit held the mail back: the answer never tells who is a member. Sign-up on a
 * site that wants addresses confirmed first answers it too, and so does an e-mail change.
 */
export interface MailSentResponse {
  /** The address the mail went to (lower-cased), for "we sent a code to …". */
  email: string;
  mailSent: true;
}

/** POST …/password-reset/complete: the mailed link's token and the new password. Answers 201 `SessionResponse`. */
export interface PasswordResetRequest {
  token: string;
  newPassword: string;
}

/** PUT …/me/email: the new address takes effect once it is confirmed (202 `MailSentResponse`). */
export interface EmailChangeRequest {
  email: string;
  /** The current password. */
  password: string;
  returnTo?: string;
}

/** The mailed link's token (POST …/email-changes) or its code (POST …/me/email/confirm, signed in). */
export type EmailChangeConfirmation = { token: string } | { code: string };

/** What the signed-out confirmation of an e-mail change answers: the address now in use. */
export interface EmailChangedResponse {
  email: string;
}

/** How many digits a mailed code has, and how long a code and a reset link stay good. */
export const SIGN_IN_CODE_DIGITS = 6;
export const SIGN_IN_CODE_MS = 10 * 60_000;
export const CODE_TRIES = 5;
export const PASSWORD_RESET_MS = 60 * 60_000;
/** A mailed link's token: 32 random bytes, base64url. */
export const MAIL_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What sign-up and sign-in answer: a bearer token for this site only, and the member. */
export interface SessionResponse {
  token: string;
  expiresAt: IsoDateTime;
  memberInfo: MemberInfo;
  /**
   * True when this sign-in completes a registration: the code or link of the sign-up's own mail
   * on a site that lets members in only once their address is confirmed. The widget then sends
   * `Service.member.registration`, as after a sign-up that signs in at once.
   */
  registered?: true;
}

/** JSON values a member may keep in metadata. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Member metadata (spec 2.8): always an object at the top level, `{}` at first. */
export type MemberMetadata = { [key: string]: JsonValue };

/** Largest stored metadata, as UTF-8 bytes of its JSON. */
export const METADATA_MAX_BYTES = 16 * 1024;
/** Deepest nesting of objects and arrays in metadata (the top-level object is depth 1). */
export const METADATA_MAX_DEPTH = 16;

/** Machine-readable codes of member API errors; the body has the Admin API's shape (spec 7). */
export type MemberApiErrorCode =
  | 'invalidBody'
  | 'invalidField'
  | 'emailTaken'
  | 'invalidCredentials'
  | 'rateLimited'
  | 'unauthenticated'
  | 'originNotAllowed'
  | 'memberBlocked'
  | 'notFound'
  | 'invalidMetadata'
  | 'metadataTooLarge'
  | 'methodNotAllowed'
  /** Plan sign-up to a plan the member is on already (active). */
  | 'alreadyMember'
  /** The card was declined; the attempt is recorded as an abandoned conversion. */
  | 'paymentDeclined'
  /** Confirming a payment the member's bank still waits on (3-D Secure not finished). */
  | 'paymentPending'
  /** Cancelling a membership that is not a running subscription. */
  | 'notCancellable'
  /** Changing a membership's plan where the rules of changing plans refuse it (an instalment plan, another currency, the same plan). */
  | 'notChangeable'
  /** Paying now (POST /memberships/{id}/pay) for a membership that owes no payment now. */
  | 'notDue'
  /** Protected content the member's plans do not open. */
  | 'noAccess'
  /** A mailed link's token that names nothing: cut short, or made void by a later password or e-mail change. */
  | 'tokenInvalid'
  /** A mailed link used already: each works once. (One made void by a later password or e-mail change is `tokenInvalid`.) */
  | 'tokenUsed'
  /** A mailed link past its time (a reset link lasts an hour, a sign-in link 10 minutes). */
  | 'tokenExpired'
  /** A wrong mailed code; the member may try again, CODE_TRIES times in all. */
  | 'invalidCode'
  /** No live code for the address: none asked for, past its 10 minutes, used, or tried CODE_TRIES times. Ask for a new one. */
  | 'codeExpired'
  /**
   * The site lets members in only once their address is confirmed: a code and link are on
   * their way (sign-up on such a site, and a password sign-in of an unconfirmed member).
   */
  | 'emailNotConfirmed'
  /** A profile picture over 2 MiB (PUT /me/picture); nothing changes. */
  | 'pictureTooLarge'
  /** A profile picture that is not JPEG, PNG or WebP by its bytes, or sent with another Content-Type; nothing changes. */
  | 'unsupportedPicture'
  /** A profile picture that cannot be decoded (cut short, damaged, empty) or has too many pixels; nothing changes. */
  | 'invalidPicture'
  | 'internalError';

/** Codes a widget promise can reject with: the service's, and the widget's own. */
export type WidgetErrorCode =
  | MemberApiErrorCode
  /** A function was called before `Service.ready`. */
  | 'notReady'
  /** A member function was called with nobody logged in. */
  | 'notLoggedIn'
  /** The service could not be reached, or answered something that is not the member API. */
  | 'networkError'
  /** `Service.open` was given a path that names no screen (spec 4.1, the svcopen table). */
  | 'unknownScreen';

export interface MemberApiError {
  path: string;
  code: MemberApiErrorCode;
  message: string;
}

export interface MemberApiErrorBody {
  errors: MemberApiError[];
}

/** `Service.conversion` detail, order part (spec 6.1). */
export interface ConversionOrder {
  /** The processor's invoice id of the first charge, or `ord_…` when nothing was charged. */
  id: string;
  /** Before tax, in the currency's major units (12.5 for $12.50). */
  subTotal: number;
  /** Before tax, in minor units (cents). */
  subTotalCents: number;
  /** Charged now, tax included, in major units. */
  grandTotal: number;
  /** Charged now, tax included, in minor units. */
  grandTotalCents: number;
  /** Present on non-free plans only. */
  currency?: string;
}

/** `Service.conversion` detail, member part (spec 6.1). */
export interface ConversionMember {
  /** The member's id. */
  id: number;
  /** First and last name joined by a space. */
  name: string;
  /** '' when not given. */
  firstName: string;
  /** '' when not given. */
  lastName: string;
  /** The member's address. */
  email: string;
  /** The member's customer at the payment processor (Stripe: `cus_…`). */
  processorCustomerId: string;
}

/** `Service.conversion`'s detail (spec 6.1): a member signed up to a plan. */
export interface ConversionDetail {
  /** The membership the sign-up made. */
  membership: Membership;
  /** What was charged. */
  order: ConversionOrder;
  /** Who signed up. */
  member: ConversionMember;
}

/** Money of one charge, in the currency's minor units (cents). */
export interface ChargeAmounts {
  subTotalCents: number;
  taxCents: number;
  grandTotalCents: number;
}

/**
 * A plan as the sign-up screens show it (GET /plans, GET /plans/{publicId}): what it costs now
 * and later, and when access ends. Times are ISO 8601; rich text is sanitized HTML.
 */
export interface PlanOffer {
  id: number;
  publicId: string;
  name: string;
  description?: string;
  type: WidgetPlanType;
  /** Lower-case ISO 4217; absent on free plans. */
  currency?: string;
  /** What signing up now charges (0 on free plans and during a trial). */
  dueNow: ChargeAmounts;
  /** Each later charge: every instalment of a multi-payment plan, every subscription period. */
  recurring?: {
    amountCents: number;
    subTotalCents: number;
    taxCents: number;
    interval: { count: number; unit: 'day' | 'week' | 'month' | 'year' };
    /** Multi-payment: how many instalments in all, the first included. */
    paymentCount?: number;
    firstChargeAt: string;
  };
  trialDays?: number;
  signupFeeCents?: number;
  taxPercentage?: number;
  taxDescription?: string;
  /** When access would end for someone signing up now. */
  expiresAt?: string;
  /** When the charge after the first is due, for someone signing up now. */
  billingPeriodEnd?: string;
  /** Subscriptions billed on a fixed day: `day`, and `month` for yearly ones. */
  billingDate?: { day: number; month?: number };
  /** The page the owner named for new members of the plan; absent, a new member stays on the page they joined from. */
  welcomeUrl?: string;
  /** The plan the owner recommends: the plans screen makes it stand out. */
  highlight?: true;
  /** What the plan includes, a line each (plain text), listed under its price. */
  features?: string[];
}

/**
 * GET /memberships/{id}/change?plan=…: what changing a running subscription to another plan would
 * do (docs/decisions/0036-changing-plans.md). An upgrade is `now`, the unused part of the period
 * paid for credited by the day; a downgrade is at the period's end; a change during a trial is
 * `now` and free, the trial's end kept.
 */
export interface PlanChangeQuote {
  when: 'now' | 'periodEnd';
  /** Lower-case ISO 4217: the two plans'. */
  currency: string;
  /** Before tax: what the unused part of the period paid for is worth (0 but for an upgrade). */
  creditCents: number;
  /** Charged at the change: the new period less the credit, with the new plan's tax. */
  dueNow: ChargeAmounts;
  /** The charge after that, at the new plan's price (tax included), and when. */
  next: { amountCents: number; at: IsoDateTime };
}

/** A charge that repeats, as the widget shows it: "$12.00 / month" (`amountCents` is with tax). */
export interface RecurringPrice {
  amountCents: number;
  subTotalCents: number;
  taxCents: number;
  interval: { count: number; unit: 'day' | 'week' | 'month' | 'year' };
}

/**
 * GET /memberships: what one of the member's running subscriptions or instalment plans costs
 * them. The price they joined at, which a later change of the plan's price does not touch.
 */
export interface MembershipPrice {
  /** The membership's id (Membership.id in MemberInfo). */
  id: number;
  /** Lower-case ISO 4217. */
  currency: string;
  recurring: RecurringPrice;
  /** While the membership is in its trial: when the trial ends and the first charge is taken. */
  trialEndsAt?: IsoDateTime;
}

/** POST /memberships: a plan sign-up. A card is needed on paid plans unless one is saved. */
export interface PlanSignUpRequest {
  planPublicId: string;
  /**
   * The payment method the processor made of the card: Stripe.js's (`pm_…`) on a Stripe site,
   * `POST /test-payment-methods`'s (`pm_test_…`) on the test processor. The card itself never
   * goes to this API; without one, the saved card pays.
   */
  paymentMethodId?: string;
}

/**
 * POST /memberships answered 202: the member's bank wants the payment confirmed (3-D Secure).
 * The widget runs Stripe.js's `handleNextAction({ clientSecret })`, then POST
 * /memberships/confirm with the intent's id; the service asks Stripe how it ended.
 */
export interface PaymentActionRequired {
  requiresAction: { intentId: string; clientSecret: string };
}

/** POST /memberships/confirm. */
export interface PlanSignUpConfirmation {
  intentId: string;
}

/** The saved card (GET and PUT /payment-method): never the number, only what identifies it. */
export interface SavedCard {
  brand: 'visa' | 'mastercard' | 'amex' | 'unknown';
  last4: string;
  expMonth: number;
  expYear: number;
}

/** GET /invoices: newest first; amounts in minor units. */
export interface InvoiceSummary {
  id: string;
  description: string;
  subTotalCents: number;
  taxCents: number;
  totalCents: number;
  currency: string;
  /** `refunded`: paid, then given back through the payment processor. */
  status: 'paid' | 'failed' | 'refunded';
  createdAt: string;
}
