/**
 * Bench of the billing run (src/service/billing/renewals.ts) on SQLite: what `svc serve` does
 * every 5 minutes.
 *
 *   npx tsx bench/renewals.ts [--due 5000] [--idle 100000]
 *
 * Prints: the time of a run over a database with `--idle` memberships none of which is due (the
 * cost of every run on a quiet day), then of a run that charges `--due` subscriptions at once
 * (the first of the month on a big site; the test processor answers in memory, so this is the
 * service's own cost per charge: reads, the invoice, the dates), per second and per charge;
 * last, when the `--idle` ones fall due too: they belong to members with no processor customer
 * (imported data, as the demo's), which billing leaves alone, so the run should stay cheap.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runRenewals } from '../src/service/billing/renewals';
import { definePlan } from '../src/service/domain/plans';
import { createSite } from '../src/service/domain/sites';
import { TestPaymentProcessor } from '../src/service/payments/test-processor';
import type { NewMember, NewMembership } from '../src/service/store/records';
import { openSqliteStore } from '../src/service/store/sqlite';

const DAY = 86_400_000;
const { values } = parseArgs({ options: { due: { type: 'string', default: '5000' }, idle: { type: 'string', default: '100000' } } });
const due = Number(values.due);
const idle = Number(values.idle);

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-renewals-'));
const store = openSqliteStore(join(dir, 'svc.db'));
try {
  let now = Date.UTC(2027, 0, 1);
  const clock = () => now;
  const processor = new TestPaymentProcessor({ clock, store });
  const site = await createSite(store, clock, { subdomain: 'bench' });
  const plan = await definePlan(store, clock, site.id, { name: 'Monthly', type: 'subscription', billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } } });

  const addMembers = async (count: number, billingPeriodEnd: number, paying: boolean) => {
    for (let start = 0; start < count; start += 5000) {
      const size = Math.min(5000, count - start);
      const members: NewMember[] = [];
      for (let i = 0; i < size; i++) {
        members.push({ siteId: site.id, email: `m${billingPeriodEnd}-${start + i}@bench.example`, status: 'approved', createdAt: now - 40 * DAY });
      }
      const ids = await store.createMembers(members);
      const memberships: NewMembership[] = ids.map((memberId) => ({
        siteId: site.id, memberId, planId: plan.id, status: 'active', createdAt: now - 40 * DAY, paymentFailure: false, billingPeriodEnd,
      }));
      await store.createMemberships(memberships);
      if (!paying) continue;
      for (const memberId of ids) {
        const { customerId } = await processor.createCustomer({ email: `${memberId}@bench.example` });
        await store.updateMember(site.id, memberId, { processorCustomerId: customerId });
        const card = await processor.addPaymentMethod(customerId, { cardNumber: '4242424242424242', cardExpiry: '12/30', cardCvc: '123' });
        await store.savePaymentMethod({ siteId: site.id, memberId, processorId: card.id, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear, createdAt: now });
      }
    }
  };

  process.stderr.write(`[bench] ${idle.toLocaleString('en')} memberships not due, ${due.toLocaleString('en')} due…\n`);
  await addMembers(idle, now + 20 * DAY, false);
  await addMembers(due, now + DAY, true);

  const timed = async () => {
    const started = performance.now();
    const report = await runRenewals({ store, clock, processor });
    return { ms: performance.now() - started, report };
  };
  const quiet = await timed();
  now += DAY + 1;
  const busy = await timed();
  const again = await timed();
  now += 20 * DAY; // the imported members' memberships fall due: nothing to charge them with
  const imported = await timed();

  const fmt = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 1 });
  console.log(`billing run, nothing due, ${fmt(idle + due)} memberships: ${fmt(quiet.ms)} ms  ${JSON.stringify(quiet.report)}`);
  console.log(`billing run, ${fmt(due)} renewals due: ${fmt(busy.ms)} ms, ${fmt((busy.report.charged / busy.ms) * 1000)} charges/s, ${fmt((busy.ms / busy.report.charged) * 1000)} µs per charge  ${JSON.stringify(busy.report)}`);
  console.log(`the run after it (all paid): ${fmt(again.ms)} ms  ${JSON.stringify(again.report)}`);
  console.log(`${fmt(idle)} due memberships of imported members (no processor customer, left alone): ${fmt(imported.ms)} ms  ${JSON.stringify(imported.report)}`);
  process.exitCode = busy.report.charged === due && busy.report.errors === 0 ? 0 : 1;
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
