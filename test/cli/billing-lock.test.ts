/** `svc billing run` beside another run (issue 16): one run at a time over a database, whatever --at says. */
import { expect, test } from 'vitest';
import { RUN_LEASE } from '../../src/service/billing/renewals';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { useTempDatabase } from './harness';

const { svc, db } = useTempDatabase('svc-billing-lock-');

test('while another process holds the billing lease, billing run bills nothing, says why, and exits 1; once it is released, it runs, and sweeps limits at the real time', async () => {
  expect((await svc('seed', '--members', '20', '--seed', '3')).code).toBe(0);
  const other = openSqliteStore(db());
  try {
    expect(await other.tryLease(RUN_LEASE, 'svc serve elsewhere', Date.now(), 60_000)).toBe(true);
    // A billing time far ahead does not make the lease look lapsed: leases keep the real time.
    const refused = await svc('billing', 'run', '--at', '2099-01-01T00:00:00Z');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out[0]!)).toMatchObject({ busy: true, charged: 0, expired: 0 });
    expect(refused.err).toMatch(/another billing run .* holds the lease: nothing was billed/);

    expect(await other.releaseLease(RUN_LEASE, 'svc serve elsewhere')).toBe(true);
    const hourly = { limit: 1, windowMs: 3_600_000 };
    expect((await other.takeRateToken('admin-key:1', Date.now(), hourly)).allowed).toBe(true);
    const ran = await svc('billing', 'run', '--at', '2099-01-01T00:00:00Z');
    expect(ran.code).toBe(0);
    const report = JSON.parse(ran.out[0]!);
    expect(report).toMatchObject({ busy: false, errors: 0 });
    expect(report.charged).toBeGreaterThan(0);
    // Billing as of 2099 did not sweep a limit that holds now.
    expect((await other.takeRateToken('admin-key:1', Date.now(), hourly)).allowed).toBe(false);
    // The run gave its lease back.
    expect(await other.tryLease(RUN_LEASE, 'svc serve elsewhere', Date.now(), 60_000)).toBe(true);
  } finally {
    await other.close();
  }
});
