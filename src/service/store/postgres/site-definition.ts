/**
 * The PostgreSQL store's side of the site file: reading a site's whole definition at one
 * moment, and carrying out a change set in one transaction (../site-definition). The
 * statements are the SQLite store's (../sql-rows); ./index builds the Store with these.
 *
 * The change set's statements are written once for both SQL stores (../site-change-steps); here
 * they run in one SERIALIZABLE transaction (./connection): the revision checked first is still
 * the site's when it commits, or PostgreSQL fails it and it runs again from the start, and then
 * sees the other change's revision and refuses.
 */
import { type Step, runStepsAsync, siteChangeSteps } from '../site-change-steps';
import { SITE_DEFINITION_READS as READS, UPDATE_SITE, siteDefinitionFrom, siteFrom, sitePatchValues } from '../sql-rows';
import type { Store } from '../store';
import { type PostgresConnection, type Sql, conflictFrom, newId } from './connection';

type SiteDefinitionMethods = Pick<Store, 'getSiteDefinition' | 'applySiteChanges' | 'updateSite'>;

/** A step of the change set (../site-change-steps), run inside the caller's transaction. */
function answer(tx: Sql, step: Step): Promise<unknown> {
  if (step.kind === 'first') return tx.first(step.text, ...step.values);
  if (step.kind === 'run') return tx.run(step.text, ...step.values);
  return newId(tx, step.text, ...step.values);
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
        return await conn.transaction((tx) => runStepsAsync(siteChangeSteps(changes), (step) => answer(tx, step)));
      } catch (error) {
        throw conflictFrom(error) ?? error;
      }
    },
  };
}
