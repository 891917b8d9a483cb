/**
 * The site file: one site, its plans, sign-up fields, content library and webhook endpoints, as
 * an owner writes it in YAML or JSON. This zod schema is the one model: `svc sites apply` reads
 * files with it, `svc sites export` writes files it accepts, and schemas/site.json (what editors
 * complete and check against) is generated from it (npm run build:schema; a test keeps the copy
 * current).
 *
 * Names follow the spec: a plan's fields are 2.2's Plan fields. Rules that span entries (keys
 * used once, library plans that exist, prices the currency can hold) are in ./cross-check.
 */
import { z } from 'zod';
import type { ContentNodeType } from '../../contract/admin';
import { SIGNUP_FIELD_TYPES, THEME_COLOUR, THEME_FONT, THEME_FONT_MAX } from '../../contract/member';
import { isoCurrency } from '../domain/currency';
import { ownerKey, planEntrySchema, webAddress } from '../domain/plan-schema';
import { domainSchema, localeSchema, subdomainSchema } from '../domain/sites';
import { emailSchema, multiLineText, nameText, oneLineText, textSchema } from '../domain/text-schema';
import { siteAddress } from '../domain/validation';
import { described } from './described';
import { paymentsSchema } from './payments-schema';
import { webhooksSchema } from './webhooks-schema';


const afterRegistration = z.union([z.enum(['stay', 'plans']), webAddress]);

/**
 * Every value of a theme ends up in CSS inside the dialog, so each is held to a shape that can
 * say nothing else: a hex colour, a number, a font list without brackets, semicolons or escapes.
 */
const hexColour = z.string().regex(THEME_COLOUR, 'must be a colour written #rgb or #rrggbb').transform((c) => c.toLowerCase());
/** A logo the dialog shows: an https address (a page on https never loads an http image quietly), or a path on the site. */
const logoAddress = z
  .string()
  .max(2000)
  .refine((text) => (text.startsWith('/') || /^https:\/\//i.test(text)) && siteAddress(text) !== undefined, 'must be an https address or a path on the site (/…)')
  .transform((text) => siteAddress(text)!);
const themeSchema = z.strictObject({
  accent: described(hexColour, 'Buttons, links and focus rings; the text on it is black or white, whichever reads better.').optional(),
  text: described(hexColour, 'Text colour of the light scheme.').optional(),
  background: described(hexColour, 'Background of the light scheme.').optional(),
  radius: described(z.number().int().min(0).max(32), 'Corner radius in px.').optional(),
  fontFamily: described(
    oneLineText(THEME_FONT_MAX).regex(THEME_FONT, 'must be a font-family list: names, quotes, commas and hyphens only'),
    'A CSS font-family list, e.g. "Inter", system-ui, sans-serif.',
  ).optional(),
  colorScheme: described(z.enum(['auto', 'light', 'dark']), 'auto follows the member\'s system; light or dark fixes it.').optional(),
  dark: described(
    z.strictObject({ accent: described(hexColour, 'The accent in dark mode; default the accent, lightened until it reads on the dark background.').optional() }),
    'The dark scheme\'s own colours.',
  ).optional(),
  logoUrl: described(logoAddress, 'The site\'s logo, shown with its name at the top of the dialog: an https address or a path on the site (/logo.svg).').optional(),
});

const noticeSwitch = (what: string) => described(z.boolean(), `${what}; default on.`).optional();
const mailSettings = z.strictObject({
  fromName: described(nameText(100), 'The sender\'s name members see; default the site\'s name.').optional(),
  replyTo: described(emailSchema, 'Where members\' answers go: one plain address.').optional(),
  requireConfirmedEmail: described(
    z.boolean(),
    'Members may use the site only once their address is confirmed; sign-up then tells no one which addresses are members. Default false.',
  ).optional(),
  notices: described(
    z.strictObject({
      welcome: noticeSwitch('Welcome after registration (with the address confirmation)'),
      receipt: noticeSwitch('A receipt after each payment'),
      paymentFailed: noticeSwitch('A word when a renewal\'s payment fails'),
      endingSoon: noticeSwitch('A reminder a week before a membership ends'),
    }),
    'Which notices the site sends; the mails members ask for (reset links, codes) always go.',
  ).optional(),
});

const siteSettings = z.strictObject({
  subdomain: described(subdomainSchema, 'The site\'s name in the service: the widget\'s `data-site`. Picks the site the file describes; it never changes.'),
  name: described(nameText(200), 'The site\'s name, shown to members.'),
  domain: described(domainSchema, 'Where the site is; default `<subdomain>.localhost`.').optional(),
  currency: described(isoCurrency, 'ISO 4217 code, the currency of plans that name none.').default('usd'),
  locale: described(localeSchema, 'The language of the widget\'s dialog.').default('en'),
  adminApi: described(z.boolean(), 'Whether the Admin API answers for the site.').default(true),
  memberMenu: described(z.boolean(), 'A logged-in member gets the member menu where the account screen would open.').default(false),
  afterRegistration: described(afterRegistration, '`stay`, `plans`, or an address to send a new member to.').default('stay'),
  checkboxLabels: described(
    z.strictObject({ yes: oneLineText(50), no: oneLineText(50) }),
    'How a checkbox field reads as text; default by locale.',
  ).optional(),
  theme: described(themeSchema, 'The dialog\'s colours and shapes on this site; a page may override them with --svc-* custom properties.').optional(),
  mail: described(mailSettings, 'How the site mails its members: sender, confirmation of addresses, notices.').optional(),
});

const fieldLabel = oneLineText(500);
/** An option's value is kept as written (not trimmed): it is what a member's answer holds. */
const optionSchema = z.strictObject({ label: oneLineText(200), value: textSchema({ max: 200, trim: false }) });
const options = z
  .array(optionSchema)
  .min(1)
  .max(100)
  .superRefine(
    (list, ctx) => {
      const seen = new Set<string>();
      list.forEach((option, i) => {
        // Said beside the options' other problems (issue 27): an option that is no object is one of them.
        const value: unknown = (option as { value?: unknown } | null)?.value;
        if (typeof value !== 'string') return;
        if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [i, 'value'], message: `the value ${JSON.stringify(value)} is used twice` });
        seen.add(value);
      });
    },
    { when: (payload) => Array.isArray(payload.value) },
  );
const fieldCommon = { key: ownerKey, label: fieldLabel, required: z.boolean().default(false) };
const [text, textarea, select, multipleSelect, checkbox] = SIGNUP_FIELD_TYPES;

export const signupFieldEntrySchema = z.discriminatedUnion('type', [
  z.strictObject({ ...fieldCommon, type: z.literal(text) }),
  z.strictObject({ ...fieldCommon, type: z.literal(textarea) }),
  z.strictObject({ ...fieldCommon, type: z.literal(select), options }),
  z.strictObject({ ...fieldCommon, type: z.literal(multipleSelect), options }),
  z.strictObject({ ...fieldCommon, type: z.literal(checkbox) }),
]);

const itemCommon = { key: ownerKey, name: oneLineText(200) };
const articleBody = multiLineText(100_000);
const linked = <T extends Exclude<ContentNodeType, 'article'>>(type: T) =>
  z.strictObject({ ...itemCommon, type: z.literal(type), url: described(webAddress, 'An http(s) address, or a path on the site (/…).') });
export const contentItemEntrySchema = z.discriminatedUnion('type', [
  z.strictObject({ ...itemCommon, type: z.literal('article'), body: described(articleBody, 'Rich text: HTML, cut to the allowed tags when saved.') }),
  linked('video'),
  linked('audio'),
  linked('file'),
  linked('link'),
]);

export const spaceEntrySchema = z.strictObject({
  space: described(oneLineText(200), 'The space\'s name: the library names a space by it.'),
  plans: described(z.array(ownerKey), 'The keys of the plans whose active members may open the items.').default([]),
  items: z.array(contentItemEntrySchema).default([]),
});

export const siteFileSchema = z.strictObject({
  /** Lets a JSON file name the schema its editor checks it against. */
  $schema: textSchema({ trim: false, min: 0 }).optional(),
  site: siteSettings,
  payments: described(paymentsSchema, 'How the site takes payments: `processor: test` (the default; moves no money) or the owner\'s Stripe account.').default({ processor: 'test' }),
  plans: z.array(planEntrySchema).default([]),
  signupFields: z.array(signupFieldEntrySchema).default([]),
  library: z.array(spaceEntrySchema).default([]),
  webhooks: described(
    webhooksSchema,
    'The site\'s webhook endpoints, matched by URL; the secrets are in environment variables the file names. Endpoints added with `svc webhooks add` are not listed here and apply leaves them alone.',
  ).default([]),
});

/** A site file as read: defaults filled in, currencies and locales lower-case, addresses normalized. */
export type SiteFile = z.output<typeof siteFileSchema>;
/** A site file as written. */
export type SiteFileInput = z.input<typeof siteFileSchema>;
export type SignupFieldEntry = SiteFile['signupFields'][number];
export type SpaceEntry = SiteFile['library'][number];
export type ContentItemEntry = SpaceEntry['items'][number];
export type { WebhookEntry } from './webhooks-schema';
