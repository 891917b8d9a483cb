/** The site's own settings: created from the file, or patched where they differ. */
import type { AfterRegistration } from '../../../contract/member';
import type { CheckboxLabels, EpochMs, NewSite, SitePatch, SiteRecord } from '../../store/records';
import { sameJson, type SiteChangeSet, type SiteDefinition } from '../../store/site-definition';
import type { SiteFile } from '../schema';
import { differences, show, type ChangeNotes } from './describe';

type SiteSettings = Omit<NewSite, 'createdAt' | 'subdomain'>;

/** The after-registration action as the file writes it: `stay`, `plans`, or an address. */
export function afterRegistrationFrom(text: string): AfterRegistration {
  return text === 'stay' || text === 'plans' ? { action: text } : { action: 'redirect', url: text };
}
export function afterRegistrationText(action: AfterRegistration | undefined): string {
  return !action ? 'stay' : action.action === 'redirect' ? action.url : action.action;
}

export function siteChange(current: SiteDefinition | undefined, file: SiteFile, at: EpochMs, notes: ChangeNotes): SiteChangeSet['site'] {
  const s = file.site;
  const settings = settingsOf(file);
  if (!current) {
    notes.line('+', `site ${s.subdomain}: ${show(s.name)} at ${settings.domain} (${s.currency}, ${s.locale})`);
    return { create: { subdomain: s.subdomain, createdAt: at, ...settings } };
  }
  const after: SiteRecord = { ...current.site, ...settings };
  if (!settings.checkboxLabels) delete after.checkboxLabels;
  if (!settings.theme) delete after.theme;
  if (!settings.mail) delete after.mail;
  if (!settings.payments) delete after.payments;
  const shown = differences(shownSettings(current.site), shownSettings(after));
  if (shown.length > 0) notes.line('~', `site ${s.subdomain}: ${shown.join(', ')}`);
  return { id: current.site.id, revision: current.revision, patch: sitePatch(current.site, settings) };
}

/** The site's settings as the file asks for them, in the store's terms. */
function settingsOf(file: SiteFile): SiteSettings {
  const s = file.site;
  return {
    name: s.name,
    domain: s.domain ?? `${s.subdomain}.localhost`,
    defaultCurrency: s.currency,
    locale: s.locale,
    adminApiEnabled: s.adminApi,
    memberMenu: s.memberMenu,
    afterRegistration: afterRegistrationFrom(s.afterRegistration),
    ...(s.checkboxLabels && { checkboxLabels: s.checkboxLabels }),
    ...(s.theme && Object.keys(s.theme).length > 0 && { theme: s.theme }),
    ...(s.mail && Object.keys(s.mail).length > 0 && { mail: s.mail }),
    // The test processor, the default, is kept as no setting at all.
    ...(file.payments.processor !== 'test' && { payments: file.payments }),
  };
}

/** The settings as the owner reads them in a change line: the file's names. */
function shownSettings(site: SiteRecord) {
  return {
    name: site.name, domain: site.domain, currency: site.defaultCurrency, locale: site.locale, adminApi: site.adminApiEnabled,
    memberMenu: site.memberMenu ?? false, afterRegistration: afterRegistrationText(site.afterRegistration),
    checkboxLabels: site.checkboxLabels,
    theme: site.theme,
    mail: site.mail,
    payments: site.payments ?? { processor: 'test' },
  };
}

function sitePatch(site: SiteRecord, wanted: SiteSettings): SitePatch {
  const patch: SitePatch = {};
  if (site.name !== wanted.name) patch.name = wanted.name;
  if (site.domain !== wanted.domain) patch.domain = wanted.domain;
  if (site.defaultCurrency !== wanted.defaultCurrency) patch.defaultCurrency = wanted.defaultCurrency;
  if (site.locale !== wanted.locale) patch.locale = wanted.locale;
  if (site.adminApiEnabled !== wanted.adminApiEnabled) patch.adminApiEnabled = wanted.adminApiEnabled;
  if ((site.memberMenu ?? false) !== wanted.memberMenu) patch.memberMenu = wanted.memberMenu!;
  if (!sameJson(site.afterRegistration ?? { action: 'stay' }, wanted.afterRegistration)) patch.afterRegistration = wanted.afterRegistration!;
  const labels: CheckboxLabels | undefined = wanted.checkboxLabels;
  if (!sameJson(site.checkboxLabels, labels)) patch.checkboxLabels = labels ?? null;
  if (!sameJson(site.theme, wanted.theme)) patch.theme = wanted.theme ?? null;
  if (!sameJson(site.mail, wanted.mail)) patch.mail = wanted.mail ?? null;
  if (!sameJson(site.payments, wanted.payments)) patch.payments = wanted.payments ?? null;
  return patch;
}
