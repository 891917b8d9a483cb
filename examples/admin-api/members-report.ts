#!/usr/bin/env -S npx tsx
/**
 * A short report on a site's members, read from the svc Admin API through its typed client
 * (src/client/admin-client.ts).
 *
 *   SVC_ADMIN_KEY=svc_admin_… npx tsx examples/admin-api/members-report.ts [--json]
 *
 * SVC_URL is the service (default http://127.0.0.1:8787). The key needs `read.members`; with
 * `read.memberships` the report covers memberships too, and with `read.plans` it names their plans.
 * Exits 0 with the report, 1 when the API or the network fails, 2 without SVC_ADMIN_KEY.
 */
import { AdminApiError, adminClient } from '../../src/client/admin-client';

const KEY = process.env.SVC_ADMIN_KEY;
const AS_JSON = process.argv.includes('--json');
const PAGE_SIZE = 100; // the most the API gives per page: the fewest requests
const MAX_RETRIES = 5; // 429s in a row on one request before giving up
const MONTHS = 6;

if (!KEY) {
  console.error('members-report: set SVC_ADMIN_KEY to an Admin API key (svc_admin_…): `npm start` prints one on first run, `npx svc keys create` makes more');
  process.exit(2);
}

const stats = { pages: {} as Record<string, number>, rateLimitWaits: 0 };
const client = adminClient({
  baseUrl: process.env.SVC_URL || 'http://127.0.0.1:8787',
  key: KEY,
  pageSize: PAGE_SIZE,
  maxRetries: MAX_RETRIES,
  // The wait the API gives is exact: the client waits it out and asks again; the report says so.
  onRateLimit: ({ path, seconds, retry }) => {
    stats.rateLimitWaits++;
    console.error(`members-report: rate limited on ${path}; waiting ${seconds} s (retry ${retry} of ${MAX_RETRIES})`);
  },
  onPage: ({ path }) => {
    const list = path.slice(1);
    stats.pages[list] = (stats.pages[list] ?? 0) + 1;
  },
});

/** A 404 on a list: the key lacks its scope (the API does not say more, so as not to tell what exists). */
const isNotFound = (error: unknown) => error instanceof AdminApiError && error.status === 404;

/** How often each value came up; `sorted()` gives `[value, count]` pairs, most first. */
class Tally<K> extends Map<K, number> {
  add(value: K) { this.set(value, (this.get(value) ?? 0) + 1); }
  get total() { return [...this.values()].reduce((a, b) => a + b, 0); }
  sorted() { return [...this].sort(([, a], [, b]) => b - a); }
}

/** Everything the report says, as data (what --json prints). */
async function buildReport() {
  // Any valid key may read its own site, so this also checks the key before the long part.
  const site = await client.site();

  // The last MONTHS calendar months (UTC), this one included, oldest first; months nobody joined show 0.
  const now = new Date();
  const joined: Record<string, number> = {};
  for (let i = MONTHS - 1; i >= 0; i--) joined[new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i)).toISOString().slice(0, 7)] = 0;
  const byStatus = new Tally<string>();
  for await (const member of client.members()) {
    byStatus.add(member.status);
    const month = member.createdAt.slice(0, 7);
    if (month in joined) joined[month]!++;
  }

  return {
    site: { id: site.id, name: site.name, subdomain: site.subdomain, domain: site.domain },
    generatedAt: now.toISOString(),
    members: { total: byStatus.total, byStatus: Object.fromEntries(byStatus.sorted()), joinedByMonth: joined },
    memberships: await membershipsPart(),
    pages: stats.pages,
    rateLimitWaits: stats.rateLimitWaits,
  };
}

/** Memberships by status and by plan, or why they are left out. */
async function membershipsPart() {
  const byStatus = new Tally<string>();
  const byPlan = new Tally<number>();
  try {
    for await (const membership of client.memberships()) {
      byStatus.add(membership.status);
      byPlan.add(membership.planId);
    }
  } catch (error) {
    if (isNotFound(error)) return { leftOut: 'the key lacks the read.memberships scope (the API answered 404)' };
    throw error;
  }
  const names = await planNames([...byPlan.keys()]);
  return {
    total: byStatus.total,
    byStatus: Object.fromEntries(byStatus.sorted()),
    byPlan: byPlan.sorted().map(([planId, count]) => ({ planId, name: names?.get(planId), count })),
    ...(!names && { planNames: 'left out: the key lacks the read.plans scope (the API answered 404)' }),
  };
}

/** Plan id → name for the plans given, or null when the key may not read plans. */
async function planNames(ids: number[]) {
  const names = new Map<number, string>();
  try {
    for await (const plan of client.plans()) names.set(plan.id, plan.name);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
  // /plans lists enabled and disabled plans only; archived and deleted ones, which older
  // memberships can still be on, are read by id.
  for (const id of ids.filter((id) => !names.has(id))) names.set(id, (await client.plan(id)).name);
  return names;
}

function toText({ site, generatedAt, members, memberships, pages, rateLimitWaits }: Awaited<ReturnType<typeof buildReport>>) {
  const rows = (pairs: Array<[string | number, number]>) => pairs.map(([label, n]) => `  ${String(label).padEnd(26)} ${String(n).padStart(6)}`);
  const lines = [
    `${site.name} (${site.subdomain}, ${site.domain}), ${generatedAt.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Members: ${members.total}`,
    ...rows(Object.entries(members.byStatus)),
    `Joined per month (last ${MONTHS}, UTC, this one so far):`,
    ...rows(Object.entries(members.joinedByMonth)),
    '',
  ];
  if ('leftOut' in memberships) lines.push(`Memberships: left out, ${memberships.leftOut}`);
  else {
    lines.push(`Memberships: ${memberships.total}`, ...rows(Object.entries(memberships.byStatus)), 'By plan:');
    lines.push(...rows(memberships.byPlan.map((p) => [p.name ?? `plan ${p.planId}`, p.count])));
    if (memberships.planNames) lines.push(`  (plan names ${memberships.planNames})`);
  }
  const fetched = Object.entries(pages).map(([list, n]) => `${n} of ${list}`).join(', ');
  lines.push('', `Pages fetched (${PAGE_SIZE} items at most): ${fetched}. Rate-limit waits: ${rateLimitWaits}.`);
  return lines.join('\n');
}

try {
  const result = await buildReport();
  console.log(AS_JSON ? JSON.stringify(result, null, 2) : toText(result));
} catch (error) {
  // The API's or the network's refusals in one line; anything else is a bug here, so its stack trace is kept.
  console.error(`members-report: ${error instanceof AdminApiError ? error.message : (error as Error).stack}`);
  process.exitCode = 1;
}
