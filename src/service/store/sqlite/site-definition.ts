/**
 * The SQLite store's side of the site file: reading a site's whole definition, and carrying out
 * a change set in one transaction (../site-definition). The statements are the PostgreSQL
 * store's (../sql-rows, ../site-change-steps); ./index builds the Store with these.
 */
import { ConflictError } from '../errors';
import { type Step, runSteps, siteChangeSteps } from '../site-change-steps';
import {
  type RawRow,
  type Row,
  SITE_DEFINITION_READS as READS,
  UNIQUE_FIELDS,
  UPDATE_SITE,
  isConstraint,
  siteDefinitionFrom,
  siteFrom,
  sitePatchValues,
} from '../sql-rows';
import type { Store } from '../store';
import type { SqliteConnection } from './connection';

type SiteDefinitionMethods = Pick<Store, 'getSiteDefinition' | 'applySiteChanges' | 'updateSite'>;

export function sqliteSiteDefinition(conn: SqliteConnection): SiteDefinitionMethods {
  const { db, sql, first, rawSql, write } = conn;

  /** A step of the change set, answered at once inside the transaction. */
  function answer(step: Step): unknown {
    if (step.kind === 'first') return first(step.text, ...step.values);
    const result = write(sql(step.text), ...step.values);
    return step.kind === 'run' ? result.changes : Number(result.lastInsertRowid);
  }
  const apply = db.transaction((changes: Parameters<Store['applySiteChanges']>[0]) => runSteps(siteChangeSteps(changes), answer));

  return {
    async updateSite(id, patch) {
      if (write(sql(UPDATE_SITE), ...sitePatchValues(id, patch)).changes === 0) return undefined;
      return siteFrom(first(READS.site, id)!);
    },

    async getSiteDefinition(siteId) {
      // One read transaction: the parts agree with each other and with the revision.
      return db.transaction(() => {
        const site = first(READS.site, siteId);
        if (!site) return undefined;
        const all = (text: string) => sql(text).all(siteId) as Row[];
        const raw = (text: string) => rawSql(text).all(siteId) as RawRow[];
        return siteDefinitionFrom({
          site,
          counts: all(READS.counts),
          plans: raw(READS.plans),
          links: all(READS.links),
          spaces: all(READS.spaces),
          signupFields: raw(READS.signupFields),
          items: all(READS.items),
        });
      })();
    },

    async applySiteChanges(changes) {
      try {
        return apply.immediate(changes);
      } catch (error) {
        if (isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE')) {
          const hit = UNIQUE_FIELDS.find(([column]) => error.message.includes(column));
          if (hit) throw new ConflictError(hit[1], `${hit[1]} is taken: ${error.message}`);
        }
        throw error;
      }
    },
  };
}
