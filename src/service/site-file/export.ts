/**
 * A site's definition written back as a site file (`svc sites export`). Applying the file changes
 * nothing: it holds every plan (whatever its status), the live sign-up fields, spaces and items,
 * and leaves out only what the reader would fill in the same way (defaults, a plan currency that
 * is the site's). Archived fields, spaces and items are left out: they stay archived.
 *
 * The site file's webhook endpoints are written with the name of the variable holding each
 * secret, never a secret. Those added with `svc webhooks add` are left out: their secret is in the
 * database, with no variable to name, and apply leaves them alone anyway. The YAML says so in a
 * comment; JSON has none (docs/webhooks.md says it).
 */
import { Document, isMap, isScalar } from 'yaml';
import { byListOrder } from '../domain/plan-order';
import type { PlanRecord } from '../store/records';
import type { SiteDefinition } from '../store/site-definition';
import type { WebhookEndpointRecord } from '../store/webhook-records';
import { afterRegistrationText } from './changes';
import type { SiteFileFormat } from './read';
import type { SiteFileInput } from './schema';

type PlanInput = SiteFileInput['plans'] extends (infer P)[] | undefined ? P : never;
type WebhookInput = NonNullable<SiteFileInput['webhooks']>[number];

/** `endpoints`: the site's webhook endpoints, all of them (those of `svc webhooks add` are left out here). */
export function siteFileOf(definition: SiteDefinition, endpoints: readonly WebhookEndpointRecord[] = []): SiteFileInput {
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
    ...webhooksOf(endpoints),
  };
}

/** The file's endpoints, in the order they were made; no key at all when there are none (the reader's default). */
function webhooksOf(endpoints: readonly WebhookEndpointRecord[]): Pick<SiteFileInput, 'webhooks'> {
  const entries = endpoints
    .filter((e) => e.source === 'siteFile' && e.secretEnv !== undefined)
    .map((e): WebhookInput => ({ url: e.url, ...(e.events && { events: e.events }), secretEnv: e.secretEnv!, ...(e.allowPrivate && { allowPrivate: true }) }));
  return entries.length > 0 ? { webhooks: entries } : {};
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

export interface FormatOptions {
  /** How many endpoints `svc webhooks add` made, which the file leaves out: the YAML says so. */
  cliEndpoints?: number;
}

/**
 * The file as text. YAML starts with the comment that tells editors (the YAML language server)
 * where the schema is; JSON names it in `$schema`.
 */
export function formatSiteFile(file: SiteFileInput, format: SiteFileFormat, schemaUrl: string, { cliEndpoints = 0 }: FormatOptions = {}): string {
  if (format === 'json') return `${JSON.stringify({ $schema: schemaUrl, ...file }, null, 2)}\n`;
  const doc = new Document(file);
  if (cliEndpoints > 0) noteLeftOutEndpoints(doc, cliEndpoints);
  return `# yaml-language-server: $schema=${schemaUrl}\n${doc.toString({ lineWidth: 0 })}`;
}

/** Above `webhooks:`, or at the end where it would be. */
function noteLeftOutEndpoints(doc: Document, count: number): void {
  const [what, secrets] = count === 1
    ? ['One webhook endpoint was added with `svc webhooks add` and is', 'its secret is']
    : [`${count} webhook endpoints were added with \`svc webhooks add\` and are`, 'their secrets are'];
  const text = [
    ` ${what} not in this file:`,
    ` ${secrets} kept in the database, with no environment variable to name. Apply leaves`,
    ' such endpoints as they are; `svc webhooks list` shows them.',
  ].join('\n');
  const pair = isMap(doc.contents) ? doc.contents.items.find((p) => isScalar(p.key) && p.key.value === 'webhooks') : undefined;
  if (pair && isScalar(pair.key)) pair.key.commentBefore = text;
  else doc.comment = text;
}
