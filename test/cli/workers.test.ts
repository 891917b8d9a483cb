/**
 * Issue 16: `svc serve --workers N`. The primary seeds and prints the demo key once; N workers
 * serve one port and share one Admin API rate limit through the store; a worker that dies is
 * replaced; bad values of --workers are usage errors.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runSvc } from '../support/svc-main';
import { createInterface } from 'node:readline';
import { servingUrl, startServe, svc } from '../support/svc-process';

interface Serving {
  url: string;
  log: string[];
  stdout: string[];
  stop(): Promise<number | null>;
}

/** `svc serve …` as startServe runs it, its stdout kept (the demo key). */
async function serveKeepingStdout(args: string[], env: Record<string, string>): Promise<Serving> {
  const child = svc(['serve', ...args], env);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const stdout: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => stdout.push(line));
  const stop = () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return closed;
  };
  const log: string[] = [];
  try {
    return { url: await servingUrl(child, log), log, stdout, stop };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'svc-workers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One request on a connection of its own (no keep-alive), so the primary hands each to a worker in turn. */
function getOnce(url: string, key?: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const headers = key === undefined ? {} : { authorization: `Bearer ${key}` };
    get(url, { agent: false, headers }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode!, ...(res.headers['retry-after'] !== undefined && { retryAfter: res.headers['retry-after'] }) }));
    }).once('error', reject);
  });
}

const workerPids = (serve: { log: string[] }) => serve.log.flatMap((line) => /worker (\d+) listening/.exec(line)?.[1] ?? []).map(Number);

async function until<T>(check: () => T | undefined, what: string): Promise<T> {
  for (let tries = 0; tries < 300; tries++) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never saw ${what}`);
}

test('--workers 2 --demo: the demo key is printed once; 200 requests at once with it against 50 per 10 min get exactly 50 answers and 150 429s with Retry-After', async () => {
  // 50 per 10 minutes is 50/10s's shape with a slower refill: the burst of 200 cannot earn a 51st
  // token however long it takes to arrive, so exactly 50 is the only right count.
  const env = { SVC_DB: join(dir, 'rate.db'), PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test', SVC_ADMIN_RATE_LIMIT: '50/10m' };
  const serve = await serveKeepingStdout(['--demo', '--workers', '2'], env);
  const { stdout } = serve;
  try {
    expect(workerPids(serve)).toHaveLength(2);
    expect(serve.log.join('\n')).toMatch(/serving on http:\/\/127\.0\.0\.1:\d+ \(database .*rate\.db, 2 workers\)/);
    // Said before "serving on", but on another pipe: it may reach us a moment later.
    const key = await until(() => stdout[0], 'the demo key');
    expect(key).toMatch(/^svc_admin_/);
    expect(serve.log.join('\n')).not.toContain(key);

    const answers = await Promise.all(Array.from({ length: 200 }, () => getOnce(`${serve.url}/admin/v1/sites`, key)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(50);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(150);
    // One token comes back every 12 s.
    for (const answer of limited) expect(answer.retryAfter).toMatch(/^([1-9]|1[0-2])$/);
  } finally {
    expect(await serve.stop()).toBe(0);
  }
  expect(stdout).toHaveLength(1);
});

test('a worker that dies is replaced, said on stderr, and the service goes on answering', async () => {
  const db = join(dir, 'restart.db');
  const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test' };
  const serve = await startServe(['--workers', '2'], env);
  try {
    const [victim, survivor] = workerPids(serve);
    process.kill(victim!, 'SIGKILL');
    await until(() => serve.log.find((line) => line.includes(`worker ${victim} was killed (SIGKILL); starting another`)), 'the restart');
    const replacement = await until(() => workerPids(serve).find((pid) => pid !== victim && pid !== survivor), 'the new worker');
    expect(replacement).toBeGreaterThan(0);
    const answers = await Promise.all(Array.from({ length: 20 }, () => getOnce(`${serve.url}/healthz`)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  } finally {
    expect(await serve.stop()).toBe(0);
  }
});

test('--workers takes a whole number from 1 to 64: anything else is a usage error, exit 2, and nothing starts', async () => {
  for (const bad of ['0', '-1', 'two', '1.5', '', '65', '1e1']) {
    const result = await runSvc(['serve', `--workers=${bad}`], { SVC_DB: join(dir, 'never.db'), PORT: '0' });
    expect(result.code, bad).toBe(2);
    expect(result.err, bad).toMatch(/--workers takes a whole number from 1 to 64/);
    expect(result.err, bad).toMatch(/svc serve \[--demo\] \[--workers N\]/);
  }
  expect(existsSync(join(dir, 'never.db'))).toBe(false);
});
