/**
 * Bench of the member API the widget calls, against `svc serve` on a fresh demo database at
 * production password cost (scrypt N=2^17, r=8, p=1).
 *
 *   npx tsx bench/member-api.ts [--duration 10] [--connections 64] [--sign-ins 24]
 *
 * Prints: sign-in latency one at a time and under a burst for as many e-mails (what a member waits,
 * and how the bounded two-at-a-time hashing queue spreads a burst), then req/s and latency of GET /me,
 * GET /config and PATCH /me/metadata under load, and the server's peak memory.
 * Exit 1 when any request failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { installExitHandlers, onCleanup, startServer, stopAll } from './lib/children';
import { failureOf, runScenario, type Scenario } from './lib/load';
import { MemorySampler } from './lib/memory';

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const READY = /serving on (http:\/\/\S+)/;
const ORIGIN = 'http://localhost:5173'; // the demo site accepts loopback pages
const DEMO = { email: 'ada@demo.localhost', password: 'demo-password' };
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function signIn(base: string, credentials: { email: string; password: string } = DEMO): Promise<{ ms: number; status: number; token?: string }> {
  const started = performance.now();
  const response = await fetch(`${base}/sessions`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const body = (await response.json()) as { token?: string };
  return { ms: performance.now() - started, status: response.status, ...(body.token && { token: body.token }) };
}

async function main(): Promise<number> {
  installExitHandlers();
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '64' }, 'sign-ins': { type: 'string', default: '24' } },
  });
  const durationSec = Number(values.duration);
  const connections = Number(values.connections);
  const burst = Number(values['sign-ins']);
  const tmpDir = mkdtempSync(join(tmpdir(), 'svc-member-bench-'));
  onCleanup(() => rmSync(tmpDir, { recursive: true, force: true }));

  const svc = await startServer(process.execPath, ['bin/svc.js', 'serve', '--demo'], READY, {
    cwd: repoRoot,
    env: { SVC_DB: join(tmpDir, 'bench.db'), PORT: '0', HOST: '127.0.0.1', SVC_LOG_LEVEL: 'warn' },
  });
  const memory = new MemorySampler(svc.pid).start();
  const base = `${svc.url}/member/v1/sites/demo`;
  log(`svc ${svc.url} (pid ${svc.pid}), fresh demo database, production scrypt`);

  // 1. Sign-in, one at a time: what one member waits.
  const single: number[] = [];
  for (let i = 0; i < 8; i++) single.push((await signIn(base)).ms);
  // 2. A burst of simultaneous sign-ins for as many e-mails: each costs one hash (unknown e-mails
  // are checked against a decoy) and answers 401. One e-mail would be throttled past 5 at once;
  // past 34 at once (2 hashing, 32 waiting) the rest are told at once to come back (429).
  const burstStarted = performance.now();
  const results = await Promise.all(Array.from({ length: burst }, (_, i) => signIn(base, { email: `visitor${i}@bench.example`, password: 'a guess' })));
  const burstMs = performance.now() - burstStarted;
  const burstLatencies = results.map((r) => r.ms).sort((a, b) => a - b);
  const refused = results.filter((r) => r.status === 429).length;
  const failedSignIns = results.filter((r) => r.status !== 401 && r.status !== 429).length;
  const token = (await signIn(base)).token;
  if (!token) throw new Error('the demo member could not sign in');
  const afterSignIns = memory.sample();

  // 3. Reads and writes under load.
  const auth = { authorization: `Bearer ${token}`, origin: ORIGIN };
  const scenarios: Scenario[] = [
    { name: 'GET /me', description: 'MemberInfo of a member with 2 memberships and 6 custom fields', url: `${base}/me`, headers: auth },
    { name: 'GET /config', description: 'site configuration and sign-up fields, no auth', url: `${base}/config`, headers: { origin: ORIGIN } },
    {
      name: 'PATCH /me/metadata',
      description: 'merge {"visits": n} into the metadata, one transaction each',
      url: `${base}/me/metadata`,
      headers: { ...auth, 'content-type': 'application/json' },
      method: 'PATCH',
      body: JSON.stringify({ visits: 1, prefs: { theme: 'dark' } }),
    },
  ];
  const settings = { connections, durationSec, warmupSec: 1, pids: [svc.pid, process.pid] };
  const loads = [];
  for (const scenario of scenarios) loads.push(await runScenario(scenario, settings));
  const mem = memory.stop();
  await stopAll();

  const sortedSingle = [...single].sort((a, b) => a - b);
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  console.log(`sign-in, one at a time (${single.length}): p50 ${ms(percentile(sortedSingle, 50))}, max ${ms(sortedSingle.at(-1)!)}`);
  console.log(
    `sign-in, ${burst} at once: all done in ${ms(burstMs)} (${((burst * 1000) / burstMs).toFixed(1)}/s), ` +
      `p50 ${ms(percentile(burstLatencies, 50))}, max ${ms(burstLatencies.at(-1)!)}, ${refused} told to come back (429), ${failedSignIns} failed; ` +
      `server RSS after: ${afterSignIns ? `${afterSignIns.rssMB.toFixed(0)} MB` : '?'}`,
  );
  console.log('');
  console.log(`scenario              req/s     p50     p99   (${connections} connections, ${durationSec} s)`);
  for (const r of loads) {
    console.log(`${r.name.padEnd(20)} ${Math.round(r.requestsPerSec).toLocaleString('en-US').padStart(7)}  ${String(r.latencyMs.p50).padStart(4)} ms  ${String(r.latencyMs.p99).padStart(4)} ms`);
  }
  console.log('');
  console.log(`server peak RSS (VmHWM): ${mem.peakMB.toFixed(0)} MB`);
  const failures = loads.flatMap((r) => (failureOf(r) ? [`${r.name}: ${failureOf(r)}`] : []));
  if (failedSignIns > 0) failures.push(`${failedSignIns} sign-ins failed`);
  for (const failure of failures) console.log(`FAILED ${failure}`);
  return failures.length > 0 ? 1 : 0;
}

process.exitCode = await main().catch(async (error: unknown) => {
  log(`failed: ${(error as Error).stack ?? String(error)}`);
  await stopAll();
  return 1;
});
