/**
 * One load scenario: a discarded warm-up run, then the measured autocannon run, boiled down to
 * the figures the report needs. Status codes and request errors are kept so a scenario that
 * got anything but 2xx is visible (and fails the bench).
 */
import autocannon from 'autocannon';
import type { Instance, Result } from 'autocannon';
import { cpuWindow, type CpuWindow } from './cpu';

export interface Scenario {
  name: string;
  /** What the scenario measures, one line. */
  description: string;
  url: string;
  headers?: Record<string, string>;
  /** GET unless given. */
  method?: 'GET' | 'PATCH' | 'POST' | 'DELETE';
  body?: string;
}

export interface LoadSettings {
  connections: number;
  durationSec: number;
  warmupSec: number;
  /** The bench's own processes (servers, this one): CPU used by any other process is noise. */
  pids: number[];
  /** The server under load (one of `pids`): its CPU, with its workers', is reported apart. */
  serverPid?: number;
  /** The database server (one of `pids`; PostgreSQL's postmaster): its CPU, with its backends', apart. */
  dbPid?: number;
}

export interface ScenarioResult {
  name: string;
  description: string;
  url: string;
  headers: Record<string, string>;
  durationSec: number;
  connections: number;
  /** autocannon's average of its per-second samples. */
  requestsPerSec: number;
  totalRequests: number;
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
  status: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The first few distinct request error messages, if any. */
  errorSamples: string[];
  /** Response bytes per second. */
  throughputBytesPerSec: number;
  /** CPU cores' worth used during the measured run by the bench's processes and by others. */
  cpu: CpuWindow | undefined;
}

function launch(scenario: Scenario, connections: number, durationSec: number, errorSamples: Set<string>): Instance {
  const instance = autocannon({
    url: scenario.url,
    connections,
    duration: durationSec,
    headers: scenario.headers ?? {},
    ...(scenario.method && { method: scenario.method }),
    ...(scenario.body !== undefined && { body: scenario.body }),
    timeout: 10,
    title: scenario.name,
  });
  instance.on('reqError', (error) => {
    if (errorSamples.size < 5) errorSamples.add(error instanceof Error ? error.message : String(error));
  });
  return instance;
}

async function measure(scenario: Scenario, connections: number, durationSec: number, errors: Set<string>): Promise<Result> {
  return await launch(scenario, connections, durationSec, errors);
}

export async function runScenario(scenario: Scenario, settings: LoadSettings): Promise<ScenarioResult> {
  if (settings.warmupSec > 0) {
    const warm = await measure(scenario, settings.connections, settings.warmupSec, new Set());
    if (warm.errors > 0 || warm.non2xx > 0) {
      process.stderr.write(`[bench] ${scenario.name}: warm-up saw ${warm.non2xx} non-2xx and ${warm.errors} errors\n`);
    }
  }
  const errorSamples = new Set<string>();
  const endCpu = cpuWindow(settings.pids, settings.serverPid, settings.dbPid);
  const r = await measure(scenario, settings.connections, settings.durationSec, errorSamples);
  const cpu = endCpu();
  const status: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats)) status[code] = count;
  return {
    name: scenario.name,
    description: scenario.description,
    url: scenario.url,
    headers: scenario.headers ?? {},
    durationSec: r.duration,
    connections: r.connections,
    requestsPerSec: r.requests.average,
    totalRequests: r.requests.total,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, mean: r.latency.mean, max: r.latency.max },
    status,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    errorSamples: [...errorSamples],
    throughputBytesPerSec: r.throughput.average,
    cpu,
  };
}

/** Why a scenario counts as failed, or undefined when it got only 2xx and no errors. */
export function failureOf(result: ScenarioResult): string | undefined {
  const problems: string[] = [];
  if (result.non2xx > 0) {
    const codes = Object.entries(result.status).filter(([code]) => !code.startsWith('2'));
    problems.push(`${result.non2xx} non-2xx (${codes.map(([code, n]) => `${code}×${n}`).join(', ')})`);
  }
  if (result.errors > 0) {
    problems.push(`${result.errors} errors (${result.timeouts} timeouts${result.errorSamples.length ? `: ${result.errorSamples.join('; ')}` : ''})`);
  }
  if (result.totalRequests === 0) problems.push('no request completed');
  return problems.length ? problems.join(', ') : undefined;
}
