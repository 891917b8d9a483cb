/**
 * The SQLite store's named leases (the billing run's lock, a renewal's claim; decision 0025).
 * Taking one is one upsert that writes only when the lease is free, lapsed or the holder's own:
 * a row comes back exactly when the caller holds it now.
 */
import type { SqliteConnection } from './connection';
import type { LeaseMethods } from '../store';

export function sqliteLeases({ db }: SqliteConnection): LeaseMethods {
  const take = db.prepare(
    `INSERT INTO leases (name, holder, expires_at) VALUES (@name, @holder, @until)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE leases.holder = excluded.holder OR leases.expires_at <= @now
     RETURNING holder`,
  );
  const release = db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?');
  return {
    tryLease: async (name, holder, now, leaseMs) => take.get({ name, holder, now, until: now + leaseMs }) !== undefined,
    releaseLease: async (name, holder) => release.run(name, holder).changes > 0,
  };
}
