#!/usr/bin/env node
/**
 * A short report on a site's members, read from the svc Admin API.
 *
 *   SVC_ADMIN_KEY=svc_admin_… node examples/admin-api/members-report.mjs [--json]
 *
 * SVC_URL is the service (default http://127.0.0.1:8787). The key needs `read.members`; with
 * `read.memberships` the report covers memberships too, and with `read.plans` it names their plans.
 * Exits 0 with the report, 1 when the API or the network fails, 2 without SVC_ADMIN_KEY.
 * Node 22 or later, no dependencies: copy it and count what your site cares about.
 */

const BASE = `${(process.env.SVC_URL || 'http://127.0.0.1:8787').replace(/\/+$/, '')}/admin/v1`;
const KEY = process.env.SVC_ADMIN_KEY;
const AS_JSON = process.argv.includes('--json');
const PAGE_SIZE = 100; // the most the API gives per page: the fewest requests
const MAX_RETRIES = 5; // 429s in a row on one request before giving up
const MONTHS = 6;

if (!KEY) {
  console.error('members-report: set SVC_ADMIN_KEY to an Admin API key (svc_admin_…): `npm start` prints one on first run, `npx svc keys create` makes more');
  process.exit(2);
}

/** The API or the network said no: reported in one line, since it is no bug in this script. */
class Failure extends Error {}
/** A 404 on a list: the key lacks its scope (the API does not say more, so as not to tell what exists). */
class NotFound extends Failure {}

const stats = { pages: {}, rateLimitWaits: 0 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One GET, resolving to a 2xx response. A 429 is waited out as its Retry-After says and the same
 * request goes again: the wait the API gives is exact, so retrying sooner only earns another 429.
 */
async function get(path, headers = {}) {
  for (let retries = 0; ; retries++) {
    let response;
    try {
      // A timeout, so a stuck connection fails the report instead of hanging it.
      response = await fetch(BASE + path, { headers: { authorization: `Bearer ${KEY}`, ...headers }, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw new Failure(`cannot reach ${BASE}${path}: ${error.cause?.message ?? error.message}`);
    }
    if (response.ok) return response;
    // Errors are {"errors":[{"path","code","message"}]}; the first one says enough here.
    const { code, message } = (await response.json().catch(() => ({})))?.errors?.[0] ?? {};
    if (response.status === 429 && retries < MAX_RETRIES) {
      // Whole seconds, the API promises; anything else is read as 1 s rather than trusted.
      const retryAfter = response.headers.get('retry-after') ?? '';
      const seconds = /^\d+$/.test(retryAfter) ? Number(retryAfter) : 1;
      stats.rateLimitWaits++;
      console.error(`members-report: rate limited on ${path}; waiting ${seconds} s (retry ${retries + 1} of ${MAX_RETRIES})`);
      await sleep(seconds * 1000);
      continue;
    }
    const gaveUp = response.status === 429 ? ` (gave up after ${MAX_RETRIES} retries)` : '';
    const text = `GET ${BASE}${path} answered ${response.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}${gaveUp}`;
    throw response.status === 404 ? new NotFound(text) : new Failure(text);
  }
}

/**
 * Every item of a list, one page at a time (so a big site never sits in memory whole): each next
 * page is asked for with the cursor the last one gave, until the API says no more follow.
 * Cursors are opaque; never build or edit one.
 */
async function* listAll(path) {
  let cursor;
  for (;;) {
    const response = await get(path, { 'x-items-after': String(PAGE_SIZE), ...(cursor && { 'x-cursor': cursor }) });
    const list = path.slice(1);
    stats.pages[list] = (stats.pages[list] ?? 0) + 1;
    yield* await response.json();
    if (response.headers.get('x-has-more-items-after') !== 'true') return;
    cursor = response.headers.get('x-next-cursor');
    if (!cursor) throw new Failure(`GET ${BASE}${path} said more items follow but sent no X-Next-Cursor`);
  }
}

/** How often each value came up; `sorted()` gives `[value, count]` pairs, most first. */
class Tally extends Map {
  add(value) { this.set(value, (this.get(value) ?? 0) + 1); }
  get total() { return [...this.values()].reduce((a, b) => a + b, 0); }
  sorted() { return [...this].sort(([, a], [, b]) => b - a); }
}

async function report() {
  // Any valid key may read its own site, so this also checks the key before the long part.
  const [site] = await (await get('/sites')).json();

  // The last MONTHS calendar months (UTC), this one included, oldest first; months nobody joined show 0.
  const now = new Date();
  const joined = {};
  for (let i = MONTHS - 1; i >= 0; i--) joined[new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i)).toISOString().slice(0, 7)] = 0;
  const byStatus = new Tally();
  for await (const member of listAll('/members')) {
    byStatus.add(member.status);
    const month = member.createdAt.slice(0, 7);
    if (month in joined) joined[month]++;
  }

  const result = {
    site: { id: site.id, name: site.name, subdomain: site.subdomain, domain: site.domain },
    generatedAt: now.toISOString(),
    members: { total: byStatus.total, byStatus: Object.fromEntries(byStatus.sorted()), joinedByMonth: joined },
    memberships: await membershipsPart(),
    pages: stats.pages,
    rateLimitWaits: stats.rateLimitWaits,
  };
  console.log(AS_JSON ? JSON.stringify(result, null, 2) : toText(result));
}

/** Memberships by status and by plan, or why they are left out. */
async function membershipsPart() {
  const byStatus = new Tally();
  const byPlan = new Tally();
  try {
    for await (const membership of listAll('/memberships')) {
      byStatus.add(membership.status);
      byPlan.add(membership.planId);
    }
  } catch (error) {
    if (error instanceof NotFound) return { leftOut: 'the key lacks the read.memberships scope (the API answered 404)' };
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
async function planNames(ids) {
  const names = new Map();
  try {
    for await (const plan of listAll('/plans')) names.set(plan.id, plan.name);
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
  // /plans lists enabled and disabled plans only; archived and deleted ones, which older
  // memberships can still be on, are read by id.
  for (const id of ids.filter((id) => !names.has(id))) names.set(id, (await (await get(`/plans/${id}`)).json()).name);
  return names;
}

function toText({ site, generatedAt, members, memberships, pages, rateLimitWaits }) {
  const rows = (pairs) => pairs.map(([label, n]) => `  ${String(label).padEnd(26)} ${String(n).padStart(6)}`);
  const lines = [
    `${site.name} (${site.subdomain}, ${site.domain}), ${generatedAt.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Members: ${members.total}`,
    ...rows(Object.entries(members.byStatus)),
    `Joined per month (last ${MONTHS}, UTC, this one so far):`,
    ...rows(Object.entries(members.joinedByMonth)),
    '',
  ];
  if (memberships.leftOut) lines.push(`Memberships: left out, ${memberships.leftOut}`);
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
  await report();
} catch (error) {
  // Expected failures in one line; anything else is a bug here, so its stack trace is kept.
  console.error(`members-report: ${error instanceof Failure ? error.message : error.stack}`);
  process.exitCode = 1;
}
