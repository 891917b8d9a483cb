/**
 * Load bench of the Admin API's GET /members against a bare node:http baseline.
 *
 *   npx tsx bench/admin-api.ts [--members 1000000] [--duration 10] [--connections 64]
 *                              [--db PATH] [--fresh] [--warmup 2] [--deep-page 10000]
 *
 * Seeds (or reuses bench/.cache/bench-<N>.db), starts `svc serve` and bench/bare-server.ts as
 * children, finds a real e-mail and a cursor for a deep page, runs one autocannon scenario after
 * another (each after a discarded warm-up), samples the server's RSS, prints a table and the
 * target checks, and writes bench/results/admin-api-<timestamp>.json. Exit 1 when any
 * scenario got a non-2xx answer or a request error, or the setup failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { installExitHandlers, onCleanup, run, startServer, stopAll } from './lib/children';
import { failureOf, runScenario, type Scenario, type ScenarioResult } from './lib/load';
import { MemorySampler } from './lib/memory';
import { AdminClient, openDbFacts, walkToDeepCursor } from './lib/prepare';
import { formatChecks, formatTable, targetChecks, writeResults } from './lib/report';
import { prepareDb } from './lib/seed-db';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = dirname(benchDir);
const svcBin = join(repoRoot, 'bin/svc.js');
const SCOPES = 'read.members,read.plans,read.memberships,read.memberEvents,read.contentViews';
const READY = /serving on (http:\/\/\S+)/;

function options() {
  const { values } = parseArgs({
    options: {
      members: { type: 'string', default: '1000000' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '64' },
      warmup: { type: 'string', default: '2' },
      'deep-page': { type: 'string', default: '10000' },
      db: { type: 'string' },
      fresh: { type: 'boolean', default: false },
    },
  });
  const int = (name: keyof typeof values, min: number) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${values[name]}`);
    return n;
  };
  return {
    members: int('members', 1),
    durationSec: int('duration', 1),
    connections: int('connections', 1),
    warmupSec: int('warmup', 0),
    deepPage: int('deep-page', 1),
    db: values.db,
    fresh: values.fresh ?? false,
  };
}

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function main(): Promise<number> {
  installExitHandlers();
  const opts = options();
  const tmpDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  onCleanup(() => rmSync(tmpDir, { recursive: true, force: true }));

  // 1. The database.
  const db = await prepareDb({ repoRoot, tmpDir, members: opts.members, given: opts.db, fresh: opts.fresh });
  if (db.source === 'seeded') {
    log(`seeded in ${db.seedWallSec!.toFixed(1)} s wall (svc seed reported ${db.seed?.seconds ?? '?'} s): ${JSON.stringify(db.seed)}`);
  } else {
    log(`using ${db.source === 'cache' ? 'the cached' : 'the given'} db ${db.sourcePath}${db.seed ? ` (seeded earlier: ${JSON.stringify(db.seed)})` : ''}`);
  }

  // 2. A key and the two servers.
  const key = (await run(process.execPath, [svcBin, 'keys', 'create', '--site', 'demo', '--scopes', SCOPES, '--db', db.path], { cwd: repoRoot })).trim().split('\n').pop() ?? '';
  if (!key.startsWith('svc_admin_')) throw new Error(`keys create printed no key: ${JSON.stringify(key)}`);
  const svc = await startServer(process.execPath, [svcBin, 'serve'], READY, {
    cwd: repoRoot,
    env: { SVC_DB: db.path, PORT: '0', HOST: '127.0.0.1', SVC_ADMIN_RATE_LIMIT: 'off', SVC_LOG_LEVEL: 'warn' },
  });
  const memory = new MemorySampler(svc.pid).start();
  const bare = await startServer(process.execPath, ['--import', 'tsx', join(benchDir, 'bare-server.ts')], READY, { cwd: repoRoot });
  log(`svc ${svc.url} (pid ${svc.pid}), bare ${bare.url} (pid ${bare.pid})`);

  // 3. A real e-mail and a deep cursor, checked against the database.
  const client = new AdminClient(svc.url, key);
  const first = (await client.members()).items[0];
  if (!first) throw new Error('GET /members returned no members');
  const byEmail = await client.members({ email: first.email });
  if (byEmail.items.length !== 1 || byEmail.items[0]!.id !== first.id) throw new Error(`?email=${first.email} did not find exactly member ${first.id}`);
  const facts = openDbFacts(db.path);
  let deepPage = opts.deepPage;
  // Page `deepPage` must be followed by a full page of 25.
  const deepest = Math.floor(facts.count / 25) - 1;
  if (deepPage > deepest) {
    if (deepest < 1) throw new Error(`only ${facts.count} members: too few for a deep page`);
    log(`only ${facts.count.toLocaleString('en-US')} members: the deep cursor is page ${deepest}'s, not page ${deepPage}'s`);
    deepPage = deepest;
  }
  const deep = await walkToDeepCursor(client, deepPage);
  const expectedId = facts.idAtOffset(deep.skipped);
  facts.close();
  if (deep.firstId !== expectedId) throw new Error(`deep page starts at id ${deep.firstId}, but member #${deep.skipped + 1} by id is ${expectedId}`);
  log(`page ${deepPage.toLocaleString('en-US')}'s cursor leads to member #${(deep.skipped + 1).toLocaleString('en-US')} (id ${deep.firstId}, checked in the db); ` +
      `walk took ${deep.requests} requests in ${deep.walkSec.toFixed(1)} s`);

  // 4. The scenarios, one after another.
  const auth = { authorization: `Bearer ${key}` };
  const scenarios: Scenario[] = [
    { name: 'a bare node:http (25 items)', description: 'fixed 25-member JSON array, no routing/auth/db', url: `${bare.url}/admin/v1/members`, headers: auth },
    { name: 'b /members (25)', description: 'first page, default page size', url: client.membersUrl, headers: auth },
    { name: 'c /members (100)', description: 'first page, X-Items-After: 100', url: client.membersUrl, headers: { ...auth, 'x-items-after': '100' } },
    { name: 'd /members?email=', description: `exact e-mail filter (${first.email})`, url: `${client.membersUrl}?email=${encodeURIComponent(first.email)}`, headers: auth },
    { name: `e /members after ${deep.skipped.toLocaleString('en-US')}`, description: `page ${deepPage}'s X-Cursor: items ${deep.skipped + 1}-${deep.skipped + 25}`, url: client.membersUrl, headers: { ...auth, 'x-cursor': deep.cursor } },
    { name: 'f /members (25) again', description: 'first page again, right after the deep page', url: client.membersUrl, headers: auth },
  ];
  const settings = { connections: opts.connections, durationSec: opts.durationSec, warmupSec: opts.warmupSec, pids: [svc.pid, bare.pid, process.pid] };
  log(`${scenarios.length} scenarios × (${settings.warmupSec} s warm-up + ${settings.durationSec} s), ${settings.connections} connections`);
  const results: Array<ScenarioResult & { svcRssMB: number | undefined }> = [];
  for (const scenario of scenarios) {
    const result = await runScenario(scenario, settings);
    const svcRssMB = memory.sample()?.rssMB;
    results.push({ ...result, svcRssMB });
    log(`${result.name}: ${Math.round(result.requestsPerSec).toLocaleString('en-US')} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms` +
        `${svcRssMB === undefined ? '' : `, svc RSS ${svcRssMB.toFixed(0)} MB`}`);
  }

  // 5. Memory, 6. the report.
  const mem = memory.stop();
  const pick = (i: number): ScenarioResult => results[i]!;
  const [bareR, page1, deepR, page1Again] = [pick(0), pick(1), pick(4), pick(5)];
  const checks = targetChecks({ bare: bareR, page1, deep: deepR, page1Again, deepPage, peakRssMB: mem.peakMB || undefined });
  const failures = results.flatMap((r) => {
    const why = failureOf(r);
    return why ? [`${r.name}: ${why}`] : [];
  });

  const rss = (mb: number | undefined) => (mb === undefined ? '?' : `${mb.toFixed(1)} MB`);
  const out = [
    '',
    `Admin API bench: ${facts.count.toLocaleString('en-US')} members, ${settings.connections} connections, ${settings.durationSec} s per scenario ` +
      `(after ${settings.warmupSec} s warm-up), node ${process.version}, ${cpus().length} CPUs`,
    db.source === 'seeded' ? `seeded in ${db.seedWallSec!.toFixed(1)} s: ${JSON.stringify(db.seed)}` : `db: ${db.sourcePath} (${db.source})`,
    '',
    formatTable(results, bareR.requestsPerSec),
    '',
    `svc server memory: peak RSS (VmHWM) ${rss(mem.peakMB || undefined)}, RSS at the end ${rss(mem.currentMB)}`,
    '',
    formatChecks(checks),
    ...(results.some((r) => (r.cpu?.othersCores ?? 0) > 0.2)
      ? ['', 'NOTE: other processes used CPU during some runs ("other CPU" column): those figures are skewed on this 2-core machine.']
      : []),
    ...(failures.length ? ['', 'FAILED scenarios (non-2xx or request errors):', ...failures.map((f) => `  ${f}`)] : []),
  ];
  process.stdout.write(`${out.join('\n')}\n`);

  const path = writeResults(benchDir, {
    date: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model },
    options: { ...opts, deepPage },
    db: { source: db.source, path: db.sourcePath, members: facts.count, seed: db.seed, seedWallSec: db.seedWallSec },
    deepCursor: { page: deep.page, skipped: deep.skipped, firstId: deep.firstId, walkRequests: deep.requests, walkSec: deep.walkSec },
    // The key only opens the temp copy of the db, but keys do not belong in files.
    scenarios: results.map((r) => ({ ...r, headers: { ...r.headers, ...(r.headers.authorization && { authorization: 'Bearer svc_admin_…' }) } })),
    memory: { peakRssMB: mem.peakMB || undefined, endRssMB: mem.currentMB },
    checks,
    failures,
  });
  process.stdout.write(`\nresults: ${path}\n`);
  return failures.length ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
} finally {
  await stopAll();
}
process.exit(code);
