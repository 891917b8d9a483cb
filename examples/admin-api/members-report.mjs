#!/usr/bin/env node
/**
 * A short report on a site's members, read from the svc Admin API.
 *
 *   SVC_ADMIN_KEY=svc_admin_… node examples/admin-api/members-report.mjs [--json]
 *
 * SVC_URL is the service (default http://127.0.0.1:8787). The key needs `read.members`; with
 * `read.memberships` the report covers memberships too, and with `read.plans` it names their plans.
 * Node 20 or later, no dependencies: copy it and count what your site cares about.
 */

const BASE = `${(process.env.SVC_URL || 'http://127.0.0.1:8787').replace(/\/+$/, '')}/admin/v1`;
const KEY = process.env.SVC_ADMIN_KEY;
const AS_JSON = process.argv.includes('--json');
const PAGE_SIZE = 100; // the most the API hands out per page: fewest requests
const MAX_RETRIES = 5; // 429s in a row for one request before giving up
const MONTHS = 6;

if (!KEY) {
  console.error('members-report: set SVC_ADMIN_KEY to an Admin API key (svc_admin_…): `npm start` prints one on first run, `npx svc keys create` makes more');
  process.exit(2);
}

/** A failure the report explains in one line (no stack trace: nothing here is a bug). */
class Failure extends Error {}

const stats = { pages: {}, rateLimitWaits: 0 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One GET. A 429 is waited out as its Retry-After says, then the same request goes again: the
 * wait the API gives is exact, so retrying sooner only earns another 429. Resolves to the
 * response when it is a 2xx, or to `null` on a 404 when `allow404` (a key without the scope).
 */
async function get(path, headers = {}, { allow404 = false } = {}) {
  for (let retries = 0; ; retries++) {
    let response;
    try {
      // A timeout, so a stuck connection fails the report instead of hanging it.
      response = await fetch(BASE + path, { headers: { authorization: `Bearer ${KEY}`, ...headers }, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw new Failure(`cannot reach ${BASE}${path}: ${error.cause?.message ?? error.message}`);
    }
    if (response.ok) return response;
    const { code, message } = (await response.json().catch(() => ({})))?.errors?.[0] ?? {};
    if (response.status === 404 && allow404) return null;
    if (response.status === 429 && retries < MAX_RETRIES) {
      // Whole seconds, says the API; anything else is read as 1 s rather than trusted.
      const seconds = /^\d+$/.test(response.headers.get('retry-after') ?? '') ? Number(response.headers.get('retry-after')) : 1;
      stats.rateLimitWaits++;
      console.error(`members-report: rate limited on ${path}; waiting ${seconds} s (retry ${retries + 1} of ${MAX_RETRIES})`);
      await sleep(seconds * 1000);
      continue;
    }
    const gaveUp = response.status === 429 ? ` (gave up after ${MAX_RETRIES} retries)` : '';
    throw new Failure(`GET ${BASE}${path} answered ${response.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}${gaveUp}`);
  }
}

/**
 * Every item of a list, page by page: the next page is asked for with the cursor the last one
 * gave, until the API says no more items follow. Cursors are opaque; never build one yourself.
 * `null` when the key lacks the scope (the API answers 404 rather than telling what exists).
 */
async function listAll(path, { allow404 = false } = {}) {
  const items = [];
  let cursor;
  for (;;) {
    const response = await get(path, { 'x-items-after': String(PAGE_SIZE), ...(cursor && { 'x-cursor': cursor }) }, { allow404 });
    if (!response) return null;
    stats.pages[path.slice(1)] = (stats.pages[path.slice(1)] ?? 0) + 1;
    items.push(...(await response.json()));
    if (response.headers.get('x-has-more-items-after') !== 'true') return items;
    cursor = response.headers.get('x-next-cursor');
    if (!cursor) throw new Failure(`GET ${BASE}${path} said more items follow but sent no X-Next-Cursor`);
  }
}

/** `[value, count]` pairs, biggest count first. */
function tally(items, key) {
  const counts = new Map();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].sort(([, a], [, b]) => b - a);
}

async function report() {
  // Any valid key may read its own site, so this is also the check that the key works at all.
  const [site] = await (await get('/sites')).json();
  const members = await listAll('/members');

  // The last MONTHS calendar months (UTC), this one included, oldest first; months nobody joined show 0.
  const now = new Date();
  const joined = {};
  for (let i = MONTHS - 1; i >= 0; i--) joined[new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7)] = 0;
  for (const m of members) if (m.createdAt.slice(0, 7) in joined) joined[m.createdAt.slice(0, 7)]++;

  const result = {
    site: { id: site.id, name: site.name, subdomain: site.subdomain, domain: site.domain },
    generatedAt: now.toISOString(),
    members: { total: members.length, byStatus: Object.fromEntries(tally(members, (m) => m.status)), joinedByMonth: joined },
    memberships: await membershipsPart(),
    pages: stats.pages,
    rateLimitWaits: stats.rateLimitWaits,
  };
  console.log(AS_JSON ? JSON.stringify(result, null, 2) : toText(result));
}

/** Memberships by status and plan, or why they are left out. */
async function membershipsPart() {
  const memberships = await listAll('/memberships', { allow404: true });
  if (!memberships) return { leftOut: 'the key lacks the read.memberships scope (the API answered 404)' };
  // /plans lists enabled and disabled plans only; archived and deleted ones, which old
  // memberships can still be on, are read one by one.
  const plans = await listAll('/plans', { allow404: true });
  const names = new Map((plans ?? []).map((p) => [p.id, p.name]));
  if (plans) {
    for (const id of new Set(memberships.map((m) => m.planId))) {
      if (!names.has(id)) names.set(id, (await (await get(`/plans/${id}`, {}, { allow404: true }))?.json())?.name);
    }
  }
  const byPlan = tally(memberships, (m) => m.planId).map(([planId, count]) => ({ planId, name: names.get(planId), count }));
  return {
    total: memberships.length,
    byStatus: Object.fromEntries(tally(memberships, (m) => m.status)),
    byPlan,
    ...(!plans && { planNames: 'left out: the key lacks the read.plans scope (the API answered 404)' }),
  };
}

function toText({ site, generatedAt, members, memberships, pages, rateLimitWaits }) {
  const rows = (counts) => (Array.isArray(counts) ? counts : Object.entries(counts)).map(([k, n]) => `  ${k.padEnd(26)} ${String(n).padStart(6)}`);
  const lines = [
    `${site.name} (${site.subdomain}, ${site.domain}), ${generatedAt.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Members: ${members.total}`,
    ...rows(members.byStatus),
    `Joined per month (last ${MONTHS}, UTC, this one so far):`,
    ...rows(members.joinedByMonth),
    '',
  ];
  if (memberships.leftOut) lines.push(`Memberships: left out, ${memberships.leftOut}`);
  else {
    lines.push(`Memberships: ${memberships.total}`, ...rows(memberships.byStatus), 'By plan:');
    lines.push(...rows(memberships.byPlan.map((p) => [p.name ?? `plan ${p.planId}`, p.count])));
    if (memberships.planNames) lines.push(`  (plan names ${memberships.planNames})`);
  }
  const fetched = Object.entries(pages).map(([list, n]) => `${n} of ${list}`).join(', ');
  lines.push('', `Pages fetched (${PAGE_SIZE} items each at most): ${fetched}. Rate-limit waits: ${rateLimitWaits}.`);
  return lines.join('\n');
}

try {
  await report();
} catch (error) {
  // Expected failures in one line; anything else is a bug here, so keep its stack trace.
  console.error(`members-report: ${error instanceof Failure ? error.message : error.stack}`);
  process.exitCode = 1;
}
