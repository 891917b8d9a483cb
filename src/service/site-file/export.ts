/**
 * A site's definition written back as a site file (`svc sites export`). Applying the file changes
 * nothing: it holds every plan (whatever its status), the live sign-up fields, spaces and items,
 * and leaves out only what the reader would fill in the same way (defaults, a plan currency that
 * is the site's). Archived fields, spaces and items are left out: they stay archived.
 */
import { stringify } from 'yaml';
import { byListOrder } from '../domain/plan-order';
import type { PlanRecord } from '../store/records';
import type { SiteDefinition } from '../store/site-definition';
import { afterRegistrationText } from './changes';
import type { SiteFileFormat } from './read';
import type { SiteFileInput } from './schema';

type PlanInput = SiteFileInput['plans'] extends (infer P)[] | undefined ? P : never;

export function siteFileOf(definition: SiteDefinition): SiteFileInput {
  const { site } = definition;
  const planById = new Map(definition.plans.map((p) => [p.id, p]));
  const liveSpaces = definition.spaces.filter((s) => s.archivedAt === undefined);
  return {
    site: {
      subdomain: site.subdomain,
      name: site.name,
      domain: site.domain,
      currency: site.defaultCurrency,
      locale: site.locale,
      adminApi: site.adminApiEnabled,
      memberMenu: site.memberMenu ?? false,
      afterRegistration: afterRegistrationText(site.afterRegistration),
      ...(site.checkboxLabels && { checkboxLabels: site.checkboxLabels }),
      ...(site.theme && { theme: site.theme }),
      ...(site.mail && { mail: site.mail }),
    },
    // The names of the variables only: the secrets were never kept.
    payments: site.payments ?? { processor: 'test' },
    // In the order the widget lists them (the file's order is the plans' position), then the
    // archived and deleted ones, which have no place in it, by id.
    plans: [...definition.plans].sort(byListOrder).map((plan) => planEntry(plan, site.defaultCurrency)),
    signupFields: definition.signupFields
      .filter((f) => f.archivedAt === undefined)
      .map((f) => ({ key: f.key, label: f.label, type: f.type, ...(f.required && { required: true }), ...(f.options && { options: f.options }) }) as NonNullable<SiteFileInput['signupFields']>[number]),
    library: liveSpaces.map((space) => ({
      space: space.name,
      plans: space.planIds.map((id) => planById.get(id)!.key),
      items: definition.items
        .filter((item) => item.spaceId === space.id && item.archivedAt === undefined)
        .map((item) => ({ key: item.key, name: item.name, type: item.type, ...(item.url !== undefined ? { url: item.url } : { body: item.body }) }) as never),
    })),
  };
}

function planEntry(plan: PlanRecord, siteCurrency: string): PlanInput {
  const entry: Record<string, unknown> = { key: plan.key, name: plan.name, type: plan.type };
  if (plan.status !== 'enabled') entry.status = plan.status;
  if (!plan.isPublic) entry.isPublic = false;
  if (plan.description !== undefined) entry.description = plan.description;
  if (plan.welcomeUrl !== undefined) entry.welcomeUrl = plan.welcomeUrl;
  if (plan.highlight) entry.highlight = true;
  if (plan.features !== undefined) entry.features = plan.features;
  if (plan.contentUrl !== undefined) entry.contentUrl = plan.contentUrl;
  if ('expiration' in plan && plan.expiration.mode !== 'none') entry.expiration = plan.expiration;
  if ('billing' in plan) {
    const { currency, ...billing } = plan.billing;
    entry.billing = currency === siteCurrency ? billing : { ...billing, currency };
  }
  return entry as PlanInput;
}

/**
 * The file as text. YAML starts with the comment that tells editors (the YAML language server)
 * where the schema is; JSON names it in `$schema`.
 */
export function formatSiteFile(file: SiteFileInput, format: SiteFileFormat, schemaUrl: string): string {
  if (format === 'json') return `${JSON.stringify({ $schema: schemaUrl, ...file }, null, 2)}\n`;
  return `# yaml-language-server: $schema=${schemaUrl}\n${stringify(file, { lineWidth: 0 })}`;
}
