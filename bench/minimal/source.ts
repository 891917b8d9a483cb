/**
 * What the reference servers read, with nothing of the service between them and the database:
 * one keyset page of members, and the rows of one member's MemberInfo found by a session's
 * token hash. One implementation per database (./sqlite-source, ./postgres-source), opened by
 * `openSource` from the same `--store`/`--db` flags the bench passes the service.
 */

/** id, email, first_name, last_name, status, created_at */
export type MemberRow = [number, string, string | null, string | null, string, number];

/** m.id, m.plan_id, p.public_id, m.type, m.status, m.created_at, m.expires_at, m.cancels_at, m.billing_period_end, m.payment_failure, p.name, p.welcome_url, p.content_url */
export type MembershipRow = [number, number, string, string, string, number, number | null, number | null, number | null, number, string, string | null, string | null];

/** id, type, required, options (JSON text or null) */
export type FieldRow = [number, string, number, string | null];

export interface MeRows {
  /** member id, email, first_name, last_name, profile_image_url, status */
  member: [number, string, string | null, string | null, string | null, string];
  memberships: MembershipRow[];
  fields: FieldRow[];
  /** field_id, value (JSON text) */
  values: Array<[number, string]>;
}

export interface Source {
  /** The demo site (subdomain `demo`): its id and domain. */
  site: { id: number; domain: string };
  /** Up to `limit` members of the site with ids above `afterId`, by id. */
  membersAfter(afterId: number, limit: number): MemberRow[] | Promise<MemberRow[]>;
  /** The rows of the live session's member, or undefined when there is no live session for the hash. */
  me(tokenHash: string, now: number): MeRows | undefined | Promise<MeRows | undefined>;
}

export async function openSource(store: string, db: string): Promise<Source> {
  if (store === 'sqlite') return (await import('./sqlite-source')).openSqliteSource(db);
  if (store === 'postgres') return (await import('./postgres-source')).openPostgresSource(db);
  throw new Error(`--store must be sqlite or postgres, got ${store}`);
}
