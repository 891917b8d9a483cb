/**
 * The PostgreSQL store's side of the site file: reading a site's whole definition at one
 * moment, and carrying out a change set in one transaction (../site-definition). The
 * statements are the SQLite store's (../sql-rows); ./index builds the Store with these.
 *
 * The change set runs in one SERIALIZABLE transaction (./connection): the revision it checks
 * first is still the site's when it commits, or PostgreSQL fails it and it runs again from the
 * start, and then sees the other change's revision and refuses.
 */
import { ConflictError, MissingReferenceError } from '../errors';
import { type SiteChangeSet, sameJson } from '../site-definition';
import {
  INSERT_CONTENT_NODE,
  INSERT_CONTENT_SPACE,
  INSERT_PLAN,
  INSERT_SIGNUP_FIELD,
  INSERT_SITE,
  LINK_SPACE_PLAN,
  SITE_CHANGES,
  SITE_DEFINITION_READS as READS,
  UPDATE_SITE,
  contentNodeValues,
  itemChangeValues,
  planChangeValues,
  planTerms,
  planValues,
  signupFieldChangeValues,
  signupFieldValues,
  siteDefinitionFrom,
  siteFrom,
  sitePatchValues,
  siteValues,
} from '../sql-rows';
import type { Store } from '../store';
import { type PostgresConnection, type Sql, conflictFrom, newId } from './connection';

type SiteDefinitionMethods = Pick<Store, 'getSiteDefinition' | 'applySiteChanges' | 'updateSite'>;

/** The change set's work, inside the caller's transaction: answers the site's id. */
async function apply(tx: Sql, changes: SiteChangeSet): Promise<number> {
  const sql = SITE_CHANGES;
  let siteId: number;
  if ('create' in changes.site) {
    const { create } = changes.site;
    if (await tx.first(sql.subdomainTaken, create.subdomain)) throw new ConflictError('subdomain', `subdomain ${create.subdomain} is taken`);
    siteId = await newId(tx, INSERT_SITE, ...siteValues(create));
  } else {
    siteId = changes.site.id;
    const current = await tx.first(sql.revision, siteId);
    if (!current) throw new MissingReferenceError('siteId', `site ${siteId} does not exist`);
    if (current.revision !== changes.site.revision) throw new ConflictError('revision', 'the site changed since its definition was read');
    await tx.run(UPDATE_SITE, ...sitePatchValues(siteId, changes.site.patch));
  }
  const at = changes.at;

  for (const p of changes.createPlans) await tx.run(INSERT_PLAN, ...planValues(siteId, p));
  for (const p of changes.updatePlans) {
    const before = await tx.first(sql.planBefore, siteId, p.id);
    if (!before) throw new MissingReferenceError('planId', `plan ${p.id} does not exist in site ${siteId}`);
    if (before.type !== p.type) throw new ConflictError('type', `plan ${p.id} is a ${before.type as string} plan`);
    const oldBilling = (JSON.parse(before.terms as string) as { billing?: unknown }).billing;
    if (oldBilling !== undefined && !sameJson(oldBilling, planTerms(p).billing)) {
      await tx.run(sql.keepBilling, JSON.stringify(oldBilling), siteId, p.id);
    }
    await tx.run(sql.updatePlan, ...planChangeValues(siteId, p));
  }

  for (const f of changes.createSignupFields) await tx.run(INSERT_SIGNUP_FIELD, ...signupFieldValues(siteId, f));
  for (const f of changes.updateSignupFields) {
    if ((await tx.run(sql.updateSignupField, ...signupFieldChangeValues(siteId, at, f))) === 0) {
      throw new MissingReferenceError('fieldId', `sign-up field ${f.id} does not exist in site ${siteId}`);
    }
  }

  const linkPlans = async (spaceId: number, planKeys: readonly string[]) => {
    await tx.run(sql.unlinkSpace, siteId, spaceId);
    for (const key of planKeys) {
      const plan = await tx.first(sql.planIdByKey, siteId, key);
      if (!plan) throw new MissingReferenceError('planKeys', `plan ${key} does not exist in site ${siteId}`);
      await tx.run(LINK_SPACE_PLAN, siteId, spaceId, plan.id as number);
    }
  };
  for (const s of changes.updateSpaces) {
    if ((await tx.run(sql.updateSpace, s.archived ? 1 : 0, at, siteId, s.id)) === 0) {
      throw new MissingReferenceError('spaceId', `space ${s.id} does not exist in site ${siteId}`);
    }
    await linkPlans(s.id, s.planKeys);
  }
  for (const s of changes.createSpaces) {
    if (await tx.first(sql.liveSpaceByName, siteId, s.name)) throw new ConflictError('space', `the site has a space named ${s.name}`);
    await linkPlans(await newId(tx, INSERT_CONTENT_SPACE, siteId, s.name), s.planKeys);
  }

  const spaceId = async (name: string): Promise<number> => {
    const row = await tx.first(sql.liveSpaceByName, siteId, name);
    if (!row) throw new MissingReferenceError('space', `space ${name} does not exist in site ${siteId}`);
    return row.id as number;
  };
  for (const i of changes.updateItems) {
    const space = i.space === undefined ? null : await spaceId(i.space);
    if ((await tx.run(sql.updateItem, ...itemChangeValues(siteId, at, space, i))) === 0) {
      throw new MissingReferenceError('itemId', `content item ${i.id} does not exist in site ${siteId}`);
    }
  }
  for (const i of changes.createItems) await tx.run(INSERT_CONTENT_NODE, ...contentNodeValues(siteId, await spaceId(i.space), i));
  return siteId;
}

export function postgresSiteDefinition(conn: PostgresConnection): SiteDefinitionMethods {
  return {
    async updateSite(id, patch) {
      // One statement: the change and the row after it.
      const row = await conn.first(`${UPDATE_SITE} RETURNING *`, ...sitePatchValues(id, patch));
      return row && siteFrom(row);
    },

    async getSiteDefinition(siteId) {
      // One read-only snapshot: the parts agree with each other and with the revision.
      return conn.snapshot(async (tx) => {
        const site = await tx.first(READS.site, siteId);
        if (!site) return undefined;
        // One after another: a connection runs one query at a time anyway, and pg 9 refuses a
        // query sent while another is under way.
        const counts = await tx.all(READS.counts, siteId);
        const plans = await tx.raw(READS.plans, siteId);
        const links = await tx.all(READS.links, siteId);
        const spaces = await tx.all(READS.spaces, siteId);
        const signupFields = await tx.raw(READS.signupFields, siteId);
        const items = await tx.all(READS.items, siteId);
        return siteDefinitionFrom({ site, counts, plans, links, spaces, signupFields, items });
      });
    },

    async applySiteChanges(changes) {
      try {
        return await conn.transaction((tx) => apply(tx, changes));
      } catch (error) {
        throw conflictFrom(error) ?? error;
      }
    },
  };
}
