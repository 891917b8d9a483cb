/**
 * How much CPU went to processes other than the bench's own during a run (Linux /proc). On a
 * small shared machine another busy process skews every figure; this makes that visible.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SEC = 100; // USER_HZ; 100 on every mainstream Linux

/** Busy jiffies of the whole machine (all CPUs), or undefined off Linux. */
function machineBusyTicks(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal …: busy = all but idle and iowait
    return fields.reduce((sum, v, i) => (i === 3 || i === 4 ? sum : sum + v), 0);
  } catch {
    return undefined;
  }
}

/** utime + stime of one process, in jiffies. */
export function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces; the fields after its closing paren are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The process and every process below it (a server's cluster workers), by /proc's parent links. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [pid];
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** utime + stime of a process and its descendants, in jiffies (a process that ended meanwhile counts 0). */
export function treeTicks(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + processTicks(p), 0);
}

export interface CpuWindow {
  /** Cores' worth of CPU the given processes (server, bench) used. */
  oursCores: number;
  /** Cores' worth used by everything else on the machine. */
  othersCores: number;
  /** Cores' worth used by `serverPid` and its descendants, when one was given (its share of `oursCores`). */
  serverCores?: number;
  /** Cores' worth used by the database server's processes (`dbPid`'s tree: PostgreSQL's backends), when given. */
  dbCores?: number;
}

/**
 * Starts a window; call the returned function at its end. `pids` are the bench's own processes;
 * each counts with its descendants (a server's workers), as do `serverPid` and `dbPid` (which
 * should be among them), reported apart too.
 */
export function cpuWindow(pids: number[], serverPid?: number, dbPid?: number): () => CpuWindow | undefined {
  const started = performance.now();
  const machine0 = machineBusyTicks();
  const ours0 = pids.reduce((sum, pid) => sum + treeTicks(pid), 0);
  const server0 = serverPid === undefined ? 0 : treeTicks(serverPid);
  const db0 = dbPid === undefined ? 0 : treeTicks(dbPid);
  return () => {
    const machine1 = machineBusyTicks();
    if (machine0 === undefined || machine1 === undefined) return undefined;
    const seconds = (performance.now() - started) / 1000;
    const ours = pids.reduce((sum, pid) => sum + treeTicks(pid), 0) - ours0;
    const oursCores = ours / TICKS_PER_SEC / seconds;
    const totalCores = (machine1 - machine0) / TICKS_PER_SEC / seconds;
    return {
      oursCores,
      othersCores: Math.max(0, totalCores - oursCores),
      ...(serverPid !== undefined && { serverCores: (treeTicks(serverPid) - server0) / TICKS_PER_SEC / seconds }),
      ...(dbPid !== undefined && { dbCores: (treeTicks(dbPid) - db0) / TICKS_PER_SEC / seconds }),
    };
  };
}

/**
 * Waits until a freshly started server has settled (its start-up work done: the service runs a
 * billing pass and compiles on first use): its process tree below `maxCores` over `windowMs`, or
 * `timeoutMs` at most. Resolves to the seconds it waited.
 */
export async function settle(pid: number, { maxCores = 0.05, windowMs = 1000, timeoutMs = 120_000 } = {}): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = treeTicks(pid);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const cores = (treeTicks(pid) - before) / TICKS_PER_SEC / (windowMs / 1000);
    const waited = (performance.now() - started) / 1000;
    if (cores <= maxCores || waited * 1000 >= timeoutMs) return waited;
  }
}

/**
 * Waits until the machine is quiet (other engineers' test runs share it): all processes together
 * below `maxCores` over `windowMs`, or `timeoutMs` at most. Resolves to the busy cores last seen.
 */
export async function quietMachine({ maxCores = 0.1, windowMs = 1000, timeoutMs = 60_000 } = {}): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = machineBusyTicks();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = machineBusyTicks();
    if (before === undefined || after === undefined) return 0;
    const cores = (after - before) / TICKS_PER_SEC / (windowMs / 1000);
    if (cores <= maxCores || performance.now() - started >= timeoutMs) return cores;
  }
}
