/**
 * `svc` as an operator runs it: `svc serve` as a child process, once it says where it serves
 * (`startServe`), and one command to its end (`run`). Every `svc serve` child is killed when the test
 * process exits, so a failed test leaves no server behind. Commands that end (`run`) run in this
 * process, through ./svc-main.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../scripts/lib/paths';
import { runSvc } from './svc-main';

/** Node's options for a child a test starts: it stops when the test's process is gone (./exit-with-parent.cjs). */
export const CHILD_NODE_OPTIONS = ['--require', join(repoRoot, 'test/support/exit-with-parent.cjs')];

/** A `svc` command as a child process, with the environment given on top of this one. */
export function svc(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...CHILD_NODE_OPTIONS, join(repoRoot, 'bin/svc.js'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Runs a `svc` command to its end, in this process (the CLI's `main`, as ./svc-main runs it: a
 * child would cost a second of CPU to start, for a command the CLI suites test as a child
 * already); fails with its output unless it exits 0. `svc serve` is always a child.
 */
export async function run(args: string[], env: Record<string, string>): Promise<void> {
  const { code, out, err } = await runSvc(args, { ...process.env, ...env });
  if (code !== 0) throw new Error(`svc ${args.join(' ')} exited with ${code}:\n${[...out, err].join('\n')}`);
}

/** The address `svc serve` says it is serving on; every stderr line goes to `log`. Rejects when it exits first. */
export function servingUrl(serve: ChildProcess, log: string[]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    createInterface({ input: serve.stderr! }).on('line', (line) => {
      log.push(line);
      const match = /serving on (http:\/\/\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    serve.once('close', (code, signal) => reject(new Error(`svc serve exited with ${code ?? signal}:\n${log.join('\n')}`)));
  });
}

export interface ServeProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Everything it wrote to stderr, for failure messages. */
  log: string[];
  /** Its process id (to read its memory from /proc). */
  pid: number;
  /** `kill -9`: no shutdown of any kind; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, as Ctrl-C or a supervisor stops it; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** `svc serve …` as a child process, once it says where it serves. */
export async function startServe(args: string[], env: Record<string, string>): Promise<ServeProcess> {
  const child = svc(['serve', ...args], env);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const end = async (signal: NodeJS.Signals) => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return closed;
  };
  const log: string[] = [];
  try {
    const url = await servingUrl(child, log);
    child.stdout!.resume();
    return { url, log, pid: child.pid!, kill: async () => void (await end('SIGKILL')), stop: () => end('SIGTERM') };
  } catch (error) {
    await end('SIGKILL');
    throw error;
  }
}
