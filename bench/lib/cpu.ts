/**
 * How much CPU went to processes other than the bench's own during a run (Linux /proc). On a
 * small shared machine another busy process skews every figure; this makes that visible.
 */
import { readFileSync } from 'node:fs';

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
function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces; the fields after its closing paren are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

export interface CpuWindow {
  /** Cores' worth of CPU the given processes (server, bench) used. */
  oursCores: number;
  /** Cores' worth used by everything else on the machine. */
  othersCores: number;
}

/** Starts a window; call the returned function at its end. */
export function cpuWindow(pids: number[]): () => CpuWindow | undefined {
  const started = performance.now();
  const machine0 = machineBusyTicks();
  const ours0 = pids.reduce((sum, pid) => sum + processTicks(pid), 0);
  return () => {
    const machine1 = machineBusyTicks();
    if (machine0 === undefined || machine1 === undefined) return undefined;
    const seconds = (performance.now() - started) / 1000;
    const ours = pids.reduce((sum, pid) => sum + processTicks(pid), 0) - ours0;
    const oursCores = ours / TICKS_PER_SEC / seconds;
    const totalCores = (machine1 - machine0) / TICKS_PER_SEC / seconds;
    return { oursCores, othersCores: Math.max(0, totalCores - oursCores) };
  };
}
