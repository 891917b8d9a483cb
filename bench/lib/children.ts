/**
 * Child processes of the bench. Every child is tracked, so one call (also run on exit, on an
 * uncaught error and on SIGINT/SIGTERM/SIGHUP) ends them all and no server outlives the bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const live = new Set<ChildProcess>();
const cleanups: Array<() => void> = [];

/** Registers a synchronous clean-up step (e.g. removing the temp dir), run after the children end. */
export function onCleanup(step: () => void): void {
  cleanups.push(step);
}

/** Sends SIGTERM to every child still running; SIGKILL after `graceMs` for any that linger. */
export async function stopAll(graceMs = 3000): Promise<void> {
  const waits = [...live].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  );
  await Promise.all(waits);
  runCleanups();
}

function runCleanups(): void {
  for (const step of cleanups.splice(0)) {
    try {
      step();
    } catch {
      // best effort: a failed clean-up must not hide the bench's own result
    }
  }
}

let installed = false;
/** Installs the handlers that end the children however the bench ends. Idempotent. */
export function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
    runCleanups();
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n[bench] ${signal}: stopping children\n`);
      void stopAll(1000).finally(() => process.exit(130));
    });
  }
}

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Prefix for the child's stderr lines forwarded to ours; they are forwarded as they come. */
  label?: string;
}

function track(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, {
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

function forwardLines(stream: NodeJS.ReadableStream, label: string | undefined, onLine?: (line: string) => void): void {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    onLine?.(line);
    if (label !== undefined) process.stderr.write(`${label}${line}\n`);
  });
}

/** Runs a command to its end; stderr is forwarded live, stdout is collected and returned. */
export function run(command: string, args: string[], options: SpawnOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = track(command, args, options);
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    forwardLines(child.stderr!, options.label ?? '');
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${signal ?? `code ${code}`}`));
    });
  });
}

export interface Server {
  child: ChildProcess;
  pid: number;
  url: string;
  /** The child's stdout lines so far (svc serve prints a demo key there on an empty db). */
  stdout: string[];
}

/**
 * Starts a long-running child and resolves once one of its output lines matches `ready`
 * (group 1 = the URL). Output keeps being drained afterwards so the child never blocks on a
 * full pipe; stderr stays forwarded with `label`.
 */
export function startServer(
  command: string,
  args: string[],
  ready: RegExp,
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = track(command, args, options);
    const stdout: string[] = [];
    let done = false;
    const timer = setTimeout(() => fail(new Error(`${args.join(' ')} did not report ready within ${options.timeoutMs ?? 60_000} ms`)), options.timeoutMs ?? 60_000);
    function fail(error: Error): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    }
    const check = (line: string) => {
      const url = ready.exec(line)?.[1];
      if (done || url === undefined) return;
      done = true;
      clearTimeout(timer);
      resolve({ child, pid: child.pid!, url, stdout });
    };
    forwardLines(child.stdout!, undefined, (line) => {
      stdout.push(line);
      check(line);
    });
    forwardLines(child.stderr!, options.label ?? '', check);
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      if (!done) fail(new Error(`${args.join(' ')} exited before it was ready (${signal ?? `code ${code}`})`));
      else if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGKILL') {
        process.stderr.write(`[bench] ${args.join(' ')} exited unexpectedly (${signal ?? `code ${code}`})\n`);
      }
    });
  });
}

/** Stops one server and waits for it to exit. */
export function stopServer(server: Server, graceMs = 3000): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
