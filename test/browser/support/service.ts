/**
 * The real service as a child process: `svc sites create` makes the test site on a temporary
 * SQLite file, then `svc serve` runs on a free port (cheap scrypt: SVC_SCRYPT=test).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../../scripts/lib/paths';
import { SITE_DOMAIN } from './chromium';

export const SUBDOMAIN = 'shop';

export interface RunningService {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Everything the service wrote to stderr, for failure messages. */
  log: string[];
  stop(): Promise<void>;
}

/** A `svc` command as a child process, with the environment given on top of this one. */
export function svc(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [join(repoRoot, 'bin/svc.js'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs a `svc` command to its end; fails with its output unless it exits 0. */
export async function run(args: string[], env: Record<string, string>): Promise<void> {
  const child = svc(args, env);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`svc ${args.join(' ')} exited with ${code}:\n${output}`);
}

export async function startService(): Promise<RunningService> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-browser-'));
  const db = join(dir, 'svc.db');
  const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test' };
  await run(['sites', 'create', '--subdomain', SUBDOMAIN, '--name', 'Shop', '--domain', SITE_DOMAIN, '--db', db], env);
  // The site exists, so serve seeds no demo data.
  const child = svc(['serve', '--db', db], env);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const log: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      log.push(line);
      const match = /serving on (http:\/\/\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.once('close', (code) => reject(new Error(`svc serve exited with ${code}:\n${log.join('\n')}`)));
  });
  child.stdout!.resume();
  return {
    url,
    port: Number(new URL(url).port),
    log,
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null) {
        const closed = new Promise((resolve) => child.once('close', resolve));
        child.kill('SIGTERM');
        await closed;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
