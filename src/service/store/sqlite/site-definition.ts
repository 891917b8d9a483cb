/**
 * The SQLite store's side of the site file: reading a site's whole definition, and carrying out
 * a change set in one transaction (../site-definition). ./index builds the Store with these.
 */
import { ConflictError, MissingReferenceError } from '../errors';
import type { NewPlan, NewSite, SitePatch } from '../records';
import { type SiteChangeSet, sameJson } from '../site-definition';
import type { SqliteConnection } from './connection';
import {
  type RawRow,
  type Row,
  NODE_COLUMNS,
  PLAN_COLUMNS,
  SIGNUP_FIELD_COLUMNS,
  UNIQUE_FIELDS,
  contentNodeFrom,
  isConstraint,
  orNull,
  planFrom,
  siteFrom,
  signupFieldFrom,
} from '../sql-rows';
import type { Store } from '../store';

type SiteDefinitionMethods = Pick<Store, 'getSiteDefinition' | 'applySiteChanges' | 'updateSite'>;

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** The type-dependent part of a plan, as the `terms` column holds it. */
function planTerms(p: Pick<NewPlan, 'type'> & { expiration?: unknown; billing?: unknown }) {
  return p.type === 'subscription' ? { billing: p.billing } : p.type === 'free' ? { expiration: p.expiration } : { expiration: p.expiration, billing: p.billing };
}

export function sqliteSiteDefinition(conn: SqliteConnection): SiteDefinitionMethods {
  const { db, sql, first, rawSql, write } = conn;

  function patchSite(id: number, patch: SitePatch): boolean {
    const flag = (on: boolean | undefined) => (on === undefined ? null : on ? 1 : 0);
    const labels = patch.checkboxLabels;
    return (
      write(
        sql(`UPDATE sites SET name = coalesce(?, name), domain = coalesce(?, domain),
               default_currency = coalesce(?, default_currency), locale = coalesce(?, locale),
               admin_api_enabled = coalesce(?, admin_api_enabled), member_menu = coalesce(?, member_menu),
               after_registration = coalesce(?, after_registration),
               checkbox_labels = CASE WHEN ? THEN ? ELSE checkbox_labels END,
               theme = CASE WHEN ? THEN ? ELSE theme END,
               mail = CASE WHEN ? THEN ? ELSE mail END,
               revision = revision + 1
             WHERE id = ?`),
        orNull(patch.name), orNull(patch.domain), orNull(patch.defaultCurrency), orNull(patch.locale),
        flag(patch.adminApiEnabled), flag(patch.memberMenu), json(patch.afterRegistration),
        labels === undefined ? 0 : 1, labels ? JSON.stringify(labels) : null,
        patch.theme === undefined ? 0 : 1, patch.theme ? JSON.stringify(patch.theme) : null,
        patch.mail === undefined ? 0 : 1, patch.mail ? JSON.stringify(patch.mail) : null,
        id,
      ).changes > 0
    );
  }

  function insertSite(s: NewSite): number {
    return Number(
      write(
        sql(`INSERT INTO sites (name, subdomain, domain, default_currency, locale, admin_api_enabled, created_at,
               member_menu, after_registration, checkbox_labels, theme, mail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
        s.name, s.subdomain, s.domain, s.defaultCurrency, s.locale, s.adminApiEnabled ? 1 : 0, s.createdAt,
        s.memberMenu ? 1 : 0, json(s.afterRegistration), json(s.checkboxLabels), json(s.theme), json(s.mail),
      ).lastInsertRowid,
    );
  }

  const apply = db.transaction((changes: SiteChangeSet): number => {
    let siteId: number;
    if ('create' in changes.site) {
      if (first('SELECT 1 FROM sites WHERE subdomain = ?', changes.site.create.subdomain)) {
        throw new ConflictError('subdomain', `subdomain ${changes.site.create.subdomain} is taken`);
      }
      siteId = insertSite(changes.site.create);
    } else {
      siteId = changes.site.id;
      const current = first('SELECT revision FROM sites WHERE id = ?', siteId);
      if (!current) throw new MissingReferenceError('siteId', `site ${siteId} does not exist`);
      if (current.revision !== changes.site.revision) {
        throw new ConflictError('revision', 'the site changed since its definition was read');
      }
      patchSite(siteId, changes.site.patch);
    }
    const at = changes.at;

    for (const p of changes.createPlans) {
      write(
        sql(`INSERT INTO plans (site_id, key, public_id, name, description, status, is_public, color_code, content_url,
               welcome_url, position, created_at, type, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
        siteId, p.key, p.publicId, p.name, orNull(p.description), p.status, p.isPublic ? 1 : 0, p.colorCode,
        orNull(p.contentUrl), orNull(p.welcomeUrl), orNull(p.position), p.createdAt, p.type, JSON.stringify(planTerms(p)),
      );
    }
    for (const p of changes.updatePlans) {
      const before = first('SELECT type, terms FROM plans WHERE site_id = ? AND id = ?', siteId, p.id);
      if (!before) throw new MissingReferenceError('planId', `plan ${p.id} does not exist in site ${siteId}`);
      if (before.type !== p.type) throw new ConflictError('type', `plan ${p.id} is a ${before.type as string} plan`);
      const terms = JSON.stringify(planTerms(p));
      const oldBilling = (JSON.parse(before.terms as string) as { billing?: unknown }).billing;
      if (oldBilling !== undefined && !sameJson(oldBilling, planTerms(p).billing)) {
        // Members keep what they joined under: memberships still reading the plan's billing get a copy of it.
        write(sql('UPDATE memberships SET billing = ? WHERE site_id = ? AND plan_id = ? AND billing IS NULL'),
          JSON.stringify(oldBilling), siteId, p.id);
      }
      write(
        sql(`UPDATE plans SET name = ?, description = ?, status = ?, is_public = ?, content_url = ?, welcome_url = ?, position = ?,
               terms = ? WHERE site_id = ? AND id = ?`),
        p.name, orNull(p.description), p.status, p.isPublic ? 1 : 0, orNull(p.contentUrl), orNull(p.welcomeUrl), orNull(p.position), terms,
        siteId, p.id,
      );
    }

    for (const f of changes.createSignupFields) {
      write(
        sql('INSERT INTO signup_fields (site_id, key, type, label, required, options, position) VALUES (?, ?, ?, ?, ?, ?, ?)'),
        siteId, f.key, f.type, f.label, f.required ? 1 : 0, json(f.options), f.position,
      );
    }
    for (const f of changes.updateSignupFields) {
      const changed = write(
        sql(`UPDATE signup_fields SET label = ?, required = ?, options = ?, position = ?,
               archived_at = CASE WHEN ? THEN coalesce(archived_at, ?) ELSE NULL END
             WHERE site_id = ? AND id = ?`),
        f.label, f.required ? 1 : 0, json(f.options), f.position, f.archived ? 1 : 0, at, siteId, f.id,
      ).changes;
      if (changed === 0) throw new MissingReferenceError('fieldId', `sign-up field ${f.id} does not exist in site ${siteId}`);
    }

    const planId = (key: string): number => {
      const row = first('SELECT id FROM plans WHERE site_id = ? AND key = ?', siteId, key);
      if (!row) throw new MissingReferenceError('planKeys', `plan ${key} does not exist in site ${siteId}`);
      return row.id as number;
    };
    const linkPlans = (spaceId: number, planKeys: readonly string[]) => {
      write(sql('DELETE FROM content_space_plans WHERE site_id = ? AND space_id = ?'), siteId, spaceId);
      for (const key of planKeys) {
        write(sql('INSERT OR IGNORE INTO content_space_plans (site_id, space_id, plan_id) VALUES (?, ?, ?)'), siteId, spaceId, planId(key));
      }
    };
    for (const s of changes.updateSpaces) {
      const changed = write(
        sql('UPDATE content_spaces SET archived_at = CASE WHEN ? THEN coalesce(archived_at, ?) ELSE NULL END WHERE site_id = ? AND id = ?'),
        s.archived ? 1 : 0, at, siteId, s.id,
      ).changes;
      if (changed === 0) throw new MissingReferenceError('spaceId', `space ${s.id} does not exist in site ${siteId}`);
      linkPlans(s.id, s.planKeys);
    }
    for (const s of changes.createSpaces) {
      if (first('SELECT 1 FROM content_spaces WHERE site_id = ? AND name = ? AND archived_at IS NULL', siteId, s.name)) {
        throw new ConflictError('space', `the site has a space named ${s.name}`);
      }
      const spaceId = Number(write(sql('INSERT INTO content_spaces (site_id, name) VALUES (?, ?)'), siteId, s.name).lastInsertRowid);
      linkPlans(spaceId, s.planKeys);
    }

    const spaceId = (name: string): number => {
      const row = first('SELECT id FROM content_spaces WHERE site_id = ? AND name = ? AND archived_at IS NULL', siteId, name);
      if (!row) throw new MissingReferenceError('space', `space ${name} does not exist in site ${siteId}`);
      return row.id as number;
    };
    for (const i of changes.updateItems) {
      const changed = write(
        sql(`UPDATE content_nodes SET space_id = coalesce(?, space_id), name = ?, type = ?, url = ?, body = ?,
               archived_at = CASE WHEN ? THEN coalesce(archived_at, ?) ELSE NULL END
             WHERE site_id = ? AND id = ?`),
        i.space === undefined ? null : spaceId(i.space), i.name, i.type, orNull(i.url), orNull(i.body), i.archived ? 1 : 0, at, siteId, i.id,
      ).changes;
      if (changed === 0) throw new MissingReferenceError('itemId', `content item ${i.id} does not exist in site ${siteId}`);
    }
    for (const i of changes.createItems) {
      write(
        sql('INSERT INTO content_nodes (site_id, key, space_id, name, type, url, body) VALUES (?, ?, ?, ?, ?, ?, ?)'),
        siteId, i.key, spaceId(i.space), i.name, i.type, orNull(i.url), orNull(i.body),
      );
    }
    return siteId;
  });

  return {
    async updateSite(id, patch) {
      if (!patchSite(id, patch)) return undefined;
      return siteFrom(first('SELECT * FROM sites WHERE id = ?', id)!);
    },

    async getSiteDefinition(siteId) {
      // One read transaction: the parts agree with each other and with the revision.
      return db.transaction(() => {
        const siteRow = first('SELECT * FROM sites WHERE id = ?', siteId);
        if (!siteRow) return undefined;
        const counts = new Map<number, Row>();
        for (const r of sql(
          `SELECT plan_id, count(*) AS memberships, count(DISTINCT CASE WHEN status = 'active' THEN member_id END) AS active
           FROM memberships WHERE site_id = ? GROUP BY plan_id`,
        ).all(siteId) as Row[]) {
          counts.set(r.plan_id as number, r);
        }
        const plans = (rawSql(`SELECT ${PLAN_COLUMNS} FROM plans WHERE site_id = ? ORDER BY id`).all(siteId) as RawRow[]).map((r) => {
          const plan = planFrom(r);
          const c = counts.get(plan.id);
          return { ...plan, membershipCount: (c?.memberships as number) ?? 0, activeMemberCount: (c?.active as number) ?? 0 };
        });
        const links = sql('SELECT space_id, plan_id FROM content_space_plans WHERE site_id = ? ORDER BY plan_id').all(siteId) as Row[];
        const spaces = (sql('SELECT id, site_id, name, archived_at FROM content_spaces WHERE site_id = ? ORDER BY id').all(siteId) as Row[]).map(
          (r) => ({
            id: r.id as number,
            siteId: r.site_id as number,
            name: r.name as string,
            planIds: links.filter((l) => l.space_id === r.id).map((l) => l.plan_id as number),
            ...(r.archived_at !== null && { archivedAt: r.archived_at as number }),
          }),
        );
        return {
          site: siteFrom(siteRow),
          revision: siteRow.revision as number,
          plans,
          signupFields: (rawSql(`SELECT ${SIGNUP_FIELD_COLUMNS} FROM signup_fields WHERE site_id = ? ORDER BY position, id`).all(
            siteId,
          ) as RawRow[]).map(signupFieldFrom),
          spaces,
          items: (sql(`SELECT ${NODE_COLUMNS} FROM content_nodes WHERE site_id = ? ORDER BY id`).all(siteId) as Row[]).map(contentNodeFrom),
        };
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
