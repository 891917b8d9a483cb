/** Creating and changing sites: the rules for subdomain, domain, currency and locale. */
import { z } from 'zod';
import type { AfterRegistration } from '../../contract/member';
import type { Store } from '../store/store';
import type { SiteRecord } from '../store/records';
import type { Clock } from './clock';
import { WIDGET_LOCALES } from '../../contract/member';
import { isoCurrency } from './currency';
import { nameText } from './text-schema';
import { httpAddress, parseOrThrow } from './validation';

const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Text shown to members on one line (a site's name, a checkbox's words): the one text rule, ./text-schema. */
export { oneLineText } from './text-schema';

export const subdomainSchema = z.string().regex(label, 'must be 1-63 lowercase letters, digits or inner hyphens');
export const domainSchema = z
  .string()
  .toLowerCase()
  .max(253)
  .refine((d) => d.split('.').every((part) => label.test(part)), 'must be a host name such as example.com');
/** The languages the widget speaks: a site in another one would show members English without saying so. */
export const localeSchema = z
  .string()
  .transform((l) => l.toLowerCase())
  .refine((l) => (WIDGET_LOCALES as readonly string[]).includes(l), {
    error: (issue) => `must be a language the widget speaks: ${WIDGET_LOCALES.join(' or ')} (${JSON.stringify(issue.input)} is not one)`,
  });

export const siteInputSchema = z.strictObject({
  subdomain: subdomainSchema,
  name: nameText(200).optional(),
  domain: domainSchema.optional(),
  currency: isoCurrency.default('usd'),
  locale: localeSchema.default('en'),
});
export type SiteInput = z.input<typeof siteInputSchema>;

/**
 * A site without a custom domain gets `<subdomain>.localhost`: browsers resolve every
 * `*.localhost` name to loopback, so a fresh site can be tried locally at once.
 */
export async function createSite(store: Store, clock: Clock, input: SiteInput): Promise<SiteRecord> {
  const site = parseOrThrow(siteInputSchema, input);
  return store.createSite({
    subdomain: site.subdomain,
    name: site.name ?? site.subdomain,
    domain: site.domain ?? `${site.subdomain}.localhost`,
    defaultCurrency: site.currency,
    locale: site.locale,
    adminApiEnabled: true,
    createdAt: clock(),
  });
}

/**
 * The after-registration action as the CLI takes it: `stay`, `plans`, or an http(s) address to
 * send the new member to.
 */
export function parseAfterRegistration(text: string): AfterRegistration {
  if (text === 'stay' || text === 'plans') return { action: text };
  const url = httpAddress(text);
  if (!url) throw new SiteSettingError('the after-registration action is stay, plans, or an http(s) address to go to');
  return { action: 'redirect', url };
}

export class SiteSettingError extends Error {
  override readonly name = 'SiteSettingError';
}

/** Finds a site by numeric id or by subdomain, as the CLI accepts either. */
export async function findSite(store: Store, ref: string): Promise<SiteRecord | undefined> {
  return /^\d+$/.test(ref) ? store.getSite(Number(ref)) : store.getSiteBySubdomain(ref);
}
