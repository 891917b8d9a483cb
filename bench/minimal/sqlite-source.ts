/** The reference servers' reads on a SQLite file (better-sqlite3, statements prepared once, rows as arrays). */
import Database from 'better-sqlite3';
import type { FieldRow, MemberRow, MembershipRow, MeRows, Source } from './source';

export function openSqliteSource(path: string): Source {
  const db = new Database(path, { fileMustExist: true, timeout: 5000 });
  const site = db.prepare("SELECT id, domain FROM sites WHERE subdomain = 'demo'").get() as { id: number; domain: string } | undefined;
  if (!site) throw new Error(`no demo site in ${path}`);
  // The limit written in, not bound, as the store does (a bound LIMIT makes SQLite plan every page anew).
  const pages = new Map<number, Database.Statement>();
  const page = (limit: number) => {
    let statement = pages.get(limit);
    if (!statement) {
      statement = db.prepare(
        `SELECT id, email, first_name, last_name, status, created_at FROM members WHERE site_id = ? AND id > ? ORDER BY id LIMIT ${Math.trunc(limit)}`,
      ).raw(true);
      pages.set(limit, statement);
    }
    return statement;
  };
  const session = db.prepare(
    `SELECT m.id, m.email, m.first_name, m.last_name, m.profile_image_url, m.status
     FROM sessions s JOIN members m ON m.site_id = s.site_id AND m.id = s.member_id
     WHERE s.token_hash = ? AND s.site_id = ? AND s.revoked_at IS NULL AND s.expires_at > ?`,
  ).raw(true);
  const memberships = db.prepare(
    `SELECT m.id, m.plan_id, p.public_id, m.type, m.status, m.created_at, m.expires_at, m.cancels_at, m.billing_period_end,
       m.payment_failure, p.name, p.welcome_url, p.content_url
     FROM memberships m JOIN plans p ON p.id = m.plan_id WHERE m.site_id = ? AND m.member_id = ? ORDER BY m.id`,
  ).raw(true);
  const fields = db.prepare(
    'SELECT id, type, required, options FROM signup_fields WHERE site_id = ? AND archived_at IS NULL ORDER BY position, id',
  ).raw(true);
  const values = db.prepare('SELECT field_id, value FROM signup_values WHERE site_id = ? AND member_id = ? ORDER BY field_id').raw(true);
  return {
    site,
    membersAfter: (afterId, limit) => page(limit).all(site.id, afterId) as MemberRow[],
    me(tokenHash, now): MeRows | undefined {
      const member = session.get(tokenHash, site.id, now) as MeRows['member'] | undefined;
      if (!member) return undefined;
      return {
        member,
        memberships: memberships.all(site.id, member[0]) as MembershipRow[],
        fields: fields.all(site.id) as FieldRow[],
        values: values.all(site.id, member[0]) as MeRows['values'],
      };
    },
  };
}
