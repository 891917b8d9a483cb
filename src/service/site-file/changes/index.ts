/**
 * What applying a site file changes: the file compared with the site's definition as the store
 * has it, as one change set for the store (one transaction) and one line per change for the
 * owner, printed before anything is written. Nothing here writes.
 *
 * The rules (docs/decisions/0019-site-file.md):
 * - Things are matched by the owner's names: plans, sign-up fields and items by `key`, spaces by
 *   their name. A renamed key is a new thing, and the old one leaves the file.
 * - What leaves the file is archived, never deleted, while anything refers to it: a plan with
 *   memberships is archived (members keep it; a plan nobody ever held gets status `deleted`), a
 *   sign-up field keeps members' answers, an item keeps its views. Naming it again brings it back.
 * - A plan's or a field's type never changes: members hold them under their terms.
 * - A price change reaches new sign-ups; members keep what they joined under (the store copies
 *   the old billing onto their memberships).
 * - Public ids and colours are assigned once, on creation, and kept.
 *
 * One module a part of the file: site.ts, plans.ts, signup-fields.ts, library.ts, webhooks.ts.
 * The webhook endpoints are not in the change set (../apply.ts writes them in a step of their
 * own), but their lines and refusals are gathered with the rest, so a plan and a refusal name
 * every part.
 */
import type { Clock } from '../../domain/clock';
import type { SiteChangeSet, SiteDefinition } from '../../store/site-definition';
import type { WebhookEndpointRecord } from '../../store/webhook-records';
import type { PathIssue } from '../cross-check';
import type { SiteFile } from '../schema';
import { ChangeNotes, type ChangeLine } from './describe';
import { itemChanges, spaceChanges } from './library';
import { planChanges } from './plans';
import { signupFieldChanges } from './signup-fields';
import { siteChange } from './site';
import { webhookChanges, type WebhookChanges } from './webhooks';

export type { ChangeLine, ChangeOp } from './describe';
export { afterRegistrationFrom, afterRegistrationText } from './site';
export { webhooksUnchanged, type WebhookChanges } from './webhooks';

export interface SiteChanges {
  changeSet: SiteChangeSet;
  /** The site's webhook endpoints: after the change set, apart from it. */
  webhooks: WebhookChanges;
  lines: ChangeLine[];
}

/** The file asks for something the rules refuse (a plan's type changed); nothing is applied. */
export class RefusedChangeError extends Error {
  override readonly name = 'RefusedChangeError';
  constructor(readonly issues: PathIssue[]) {
    super(issues.map((i) => i.message).join('; '));
  }
}

/** Whether the change set changes nothing: the site matches the file. */
export function changesNothing(changes: SiteChangeSet): boolean {
  const { site, at: _at, ...rows } = changes;
  return !('create' in site) && Object.keys(site.patch).length === 0 && Object.values(rows).every((list) => list.length === 0);
}

/**
 * The change set, the endpoints' changes and their lines; throws RefusedChangeError naming every
 * refusal at once. `endpoints` are the site's webhook endpoints as the store has them.
 */
export function siteChanges(current: SiteDefinition | undefined, file: SiteFile, clock: Clock, endpoints: readonly WebhookEndpointRecord[] = []): SiteChanges {
  const at = clock();
  const notes = new ChangeNotes();
  const plans = current?.plans ?? [];
  const spaces = current?.spaces ?? [];
  const changeSet: SiteChangeSet = {
    site: siteChange(current, file, at, notes),
    at,
    ...planChanges(plans, file, at, notes),
    ...signupFieldChanges(current?.signupFields ?? [], file, notes),
    ...spaceChanges(spaces, plans, file, notes),
    ...itemChanges(current?.items ?? [], spaces, file, notes),
  };
  const webhooks = webhookChanges(endpoints, file, notes);
  if (notes.refused.length > 0) throw new RefusedChangeError(notes.refused);
  return { changeSet, webhooks, lines: notes.lines };
}
