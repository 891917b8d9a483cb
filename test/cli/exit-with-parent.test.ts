/**
 * The suites' children stop when the process that started them is gone (test/support/
 * exit-with-parent.cjs): a vitest worker killed mid-file, or a hook that timed out before it kept
 * the child's handle, leaves no `svc serve` running after the suite.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test } from 'vitest';
import { CHILD_NODE_OPTIONS } from '../support/svc-process';

/** The process's state letter from /proc (`Z`: exited, not yet reaped), or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    return /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}
const running = (pid: number) => {
  const state = stateOf(pid);
  return state !== undefined && state !== 'Z';
};

async function startFamily(): Promise<{ parent: ChildProcess; kept: number; bare: number }> {
  // A parent (as a vitest worker is) that starts two children that would run forever, one with the
  // options and one without, and prints their pids once both are running their own code.
  const dir = mkdtempSync(join(tmpdir(), 'svc-orphans-'));
  const forever = (name: string) => `require('node:fs').writeFileSync(${JSON.stringify(join(dir, name))}, ''); setInterval(() => {}, 1000)`;
  const parentScript = `
    const { spawn } = require('node:child_process');
    const kept = spawn(process.execPath, [...${JSON.stringify(CHILD_NODE_OPTIONS)}, '-e', ${JSON.stringify(forever('kept'))}], { stdio: 'ignore' });
    const bare = spawn(process.execPath, ['-e', ${JSON.stringify(forever('bare'))}], { stdio: 'ignore' });
    const up = () => require('node:fs').readdirSync(${JSON.stringify(dir)}).length === 2;
    const wait = setInterval(() => { if (up()) { clearInterval(wait); console.log(kept.pid + ' ' + bare.pid); } }, 20);
    setInterval(() => {}, 1000);
  `;
  const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [kept, bare] = await new Promise<number[]>((resolve) => createInterface({ input: parent.stdout! }).once('line', (line) => resolve(line.split(' ').map(Number))));
  rmSync(dir, { recursive: true, force: true });
  return { parent, kept: kept!, bare: bare! };
}

test('a child started with CHILD_NODE_OPTIONS stops within a second or two of its parent being killed; one without them runs on', async () => {
  const { parent, kept, bare } = await startFamily();
  try {
    expect(running(kept)).toBe(true);
    expect(running(bare)).toBe(true);
    parent.kill('SIGKILL');
    await expect.poll(() => running(kept), { timeout: 10_000, interval: 100 }).toBe(false);
    // The control: without the options the orphan lives on (what the suites' children did).
    expect(running(bare)).toBe(true);
  } finally {
    for (const pid of [kept, bare]) if (running(pid)) process.kill(pid, 'SIGKILL');
  }
});

test('a child whose parent was gone before Node had started it stops too', async () => {
  // The parent exits at once; the child's preload finds init as its parent from the start.
  const parentScript = `
    const child = require('node:child_process').spawn(process.execPath, [...${JSON.stringify(CHILD_NODE_OPTIONS)}, '-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached: false });
    console.log(child.pid);
    process.kill(process.pid, 'SIGKILL');
  `;
  const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolve) => createInterface({ input: parent.stdout! }).once('line', (line) => resolve(Number(line))));
  try {
    await expect.poll(() => running(pid), { timeout: 10_000, interval: 100 }).toBe(false);
  } finally {
    if (running(pid)) process.kill(pid, 'SIGKILL');
  }
});
