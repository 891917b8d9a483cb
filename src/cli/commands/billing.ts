import { parseArgs } from 'node:util';
import { runRenewals } from '../../service/billing/renewals';
import { systemClock, type Clock } from '../../service/domain/clock';
import { TestPaymentProcessor } from '../../service/payments/test-processor';
import { processorsFromEnv } from '../stripe-processors';
import { UsageError } from '../config';
import type { Io } from '../io';
import { withStore } from '../store';

export const BILLING_USAGE = ['svc billing run [--at ISO-TIME] [--db PATH]   (svc serve runs it every 5 minutes; one run at a time)'];

/**
 * Takes the charges that are due (renewals, instalments, retries; billing/renewals.ts) once,
 * deletes expired member sessions and limits, and prints what happened as one JSON line. One run
 * at a time over a database: while another holds the billing lease (`svc serve`'s, every few
 * minutes), it bills nothing, says so, and exits 1. `--at` bills as if
 * it were that time (a time after now only: a test or a catch-up, never a charge taken twice,
 * since dates only move forward); sessions expired by then are deleted too.
 */
export async function billingCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'run') throw new UsageError(`unknown billing action ${action ?? '(none)'}`);
  const { values } = parseArgs({ args: rest, options: { at: { type: 'string' }, db: { type: 'string' } } });
  let clock: Clock = systemClock;
  if (values.at !== undefined) {
    const at = Date.parse(values.at);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(values.at) || Number.isNaN(at)) throw new UsageError('--at takes an ISO 8601 time such as 2027-01-31T00:00:00Z');
    if (at < systemClock()) throw new UsageError('--at must not be in the past');
    clock = () => at;
  }
  return withStore(values.db, env, async (store) => {
    // Leases and limits at the real time, which `svc serve` keeps too, whatever --at says.
    const processor = new TestPaymentProcessor({ clock, store });
    const deps = { store, clock, realClock: systemClock, processor, processorFor: processorsFromEnv(env, processor) };
    const report = await runRenewals(deps, (error, what) => io.err(`${what}: ${(error as Error).message}`));
    io.out(JSON.stringify(report));
    if (report.busy) io.err('another billing run (svc serve\'s, or another svc billing run) holds the lease: nothing was billed; run it again later');
    return report.errors > 0 || report.busy ? 1 : 0;
  });
}
