/**
 * The reference servers' reads on PostgreSQL (node-postgres, a pool of a few connections, named
 * prepared statements, rows as arrays). Assumes the SQLite schema's tables and columns, which
 * the PostgreSQL store keeps (src/service/store/postgres/); int8 columns come back as numbers.
 */
import pg from 'pg';
import type { FieldRow, MemberRow, MembershipRow, MeRows, Source } from './source';

const INT8 = 20;

export async function openPostgresSource(url: string): Promise<Source> {
  pg.types.setTypeParser(INT8, (text) => Number(text));
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.REFERENCE_PG_POOL ?? 8) });
  const rows = async <T>(name: string, text: string, values: unknown[]) =>
    (await pool.query<T[] & unknown[]>({ name, text, values, rowMode: 'array' })).rows as unknown as T[];
  const [site] = await rows<[number, string]>('site', "SELECT id, domain FROM sites WHERE subdomain = 'demo'", []);
  if (!site) throw new Error('no demo site in the database');
  const siteId = site[0];
  return {
    site: { id: siteId, domain: site[1] },
    membersAfter: (afterId, limit) =>
      rows<MemberRow>(
        'page',
        'SELECT id, email, first_name, last_name, status, created_at FROM members WHERE site_id = $1 AND id > $2 ORDER BY id LIMIT $3',
        [siteId, afterId, limit],
      ),
    async me(tokenHash, now) {
      const [member] = await rows<MeRows['member']>(
        'session',
        `SELECT m.id, m.email, m.first_name, m.last_name, m.profile_image_url, m.status
         FROM sessions s JOIN members m ON m.site_id = s.site_id AND m.id = s.member_id
         WHERE s.token_hash = $1 AND s.site_id = $2 AND s.revoked_at IS NULL AND s.expires_at > $3`,
        [tokenHash, siteId, now],
      );
      if (!member) return undefined;
      const [memberships, fields, values] = await Promise.all([
        rows<MembershipRow>(
          'memberships',
          `SELECT m.id, m.plan_id, p.public_id, m.type, m.status, m.created_at, m.expires_at, m.cancels_at, m.billing_period_end,
             m.payment_failure::int, p.name, p.welcome_url, p.content_url
           FROM memberships m JOIN plans p ON p.id = m.plan_id WHERE m.site_id = $1 AND m.member_id = $2 ORDER BY m.id`,
          [siteId, member[0]],
        ),
        rows<FieldRow>(
          'fields',
          'SELECT id, type, required::int, options::text FROM signup_fields WHERE site_id = $1 AND archived_at IS NULL ORDER BY position, id',
          [siteId],
        ),
        rows<[number, string]>(
          'values',
          'SELECT field_id, value::text FROM signup_values WHERE site_id = $1 AND member_id = $2 ORDER BY field_id',
          [siteId, member[0]],
        ),
      ]);
      return { member, memberships, fields, values };
    },
  };
}
