/**
 * Memory of a child process from /proc/<pid>/status (Linux): VmRSS (resident now) and VmHWM
 * (the kernel's resident high-water mark since the process started). Sampled on a timer so a
 * peak is also seen if the process dies before the last reading.
 */
import { readFileSync } from 'node:fs';

export interface MemoryReading {
  rssMB: number;
  hwmMB: number;
}

export function readMemory(pid: number): MemoryReading | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined; // gone, or not Linux
  }
  const kB = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  const rss = kB('VmRSS');
  const hwm = kB('VmHWM');
  if (Number.isNaN(rss) || Number.isNaN(hwm)) return undefined;
  return { rssMB: rss / 1024, hwmMB: hwm / 1024 };
}

export class MemorySampler {
  private timer: NodeJS.Timeout | undefined;
  /** Highest VmHWM seen. */
  peakMB = 0;
  last: MemoryReading | undefined;

  constructor(private readonly pid: number, private readonly everyMs = 500) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
    this.timer.unref();
    return this;
  }

  sample(): MemoryReading | undefined {
    const reading = readMemory(this.pid);
    if (reading) {
      this.last = reading;
      this.peakMB = Math.max(this.peakMB, reading.hwmMB);
    }
    return reading;
  }

  stop(): { peakMB: number; currentMB: number | undefined } {
    if (this.timer) clearInterval(this.timer);
    this.sample();
    return { peakMB: this.peakMB, currentMB: this.last?.rssMB };
  }
}
