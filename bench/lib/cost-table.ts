/**
 * request-cost.ts's table: per endpoint, one line per store × workers with the service's, the
 * minimal server's and the bare server's req/s side by side, the service/minimal ratio against
 * the target, and each server's CPU per answer.
 */
import type { ScenarioResult } from './load';

/** The service at this share of the minimal server's req/s or more: PASS. */
export const TARGET = 0.8;

type Kind = 'service' | 'minimal' | 'bare';

export interface Row {
  store: 'sqlite' | 'postgres';
  workers: number;
  results: Partial<Record<'members' | 'me', Partial<Record<Kind, ScenarioResult>>>>;
  /** Where a minimal server's answer differed from the service's (its figures then compare nothing). */
  mismatches: string[];
}

const TITLES = {
  members: 'GET /admin/v1/members (25 items) vs the minimal keyset page server',
  me: 'GET /member/v1/sites/demo/me vs the minimal session-and-member server',
};
const STORES = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

const num = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const rps = (r: ScenarioResult | undefined) => (r ? num(r.requestsPerSec) : '-');
/** Server CPU per answer in µs: its cores over its answers per second. */
const cpuPerRequest = (r: ScenarioResult | undefined) =>
  r?.cpu?.serverCores === undefined || r.requestsPerSec === 0 ? '-' : num((r.cpu.serverCores * 1e6) / r.requestsPerSec);
/** The database server's CPU per answer in µs (PostgreSQL's backends), or '-' for SQLite, which runs inside the server. */
const dbPerRequest = (r: ScenarioResult | undefined) =>
  r?.cpu?.dbCores === undefined || r.requestsPerSec === 0 ? '-' : num((r.cpu.dbCores * 1e6) / r.requestsPerSec);

/** service/minimal of one row's endpoint, or undefined when either is missing. */
export function ratioOf(row: Row, endpoint: 'members' | 'me'): number | undefined {
  const { service, minimal } = row.results[endpoint] ?? {};
  return service && minimal && minimal.requestsPerSec > 0 ? service.requestsPerSec / minimal.requestsPerSec : undefined;
}

export function formatCostTable(rows: Row[], endpoint: 'members' | 'me'): string {
  const head = ['store', 'workers', 'service req/s', 'minimal req/s', 'bare req/s', 'service/minimal', `≥ ${TARGET}×`, 'CPU µs/req svc · min · bare', 'db µs/req svc · min', 'other CPU'];
  const lines = rows.flatMap((row) => {
    const r = row.results[endpoint];
    if (!r) return [];
    const ratio = ratioOf(row, endpoint);
    const others = Math.max(...Object.values(r).map((x) => x?.cpu?.othersCores ?? 0));
    return [[
      STORES[row.store],
      String(row.workers),
      rps(r.service),
      rps(r.minimal),
      rps(r.bare),
      ratio === undefined ? '-' : `${num(ratio, 2)}×`,
      ratio === undefined ? '-' : row.mismatches.some((m) => m.startsWith(endpoint)) ? 'VOID' : ratio >= TARGET ? 'PASS' : 'MISS',
      `${cpuPerRequest(r.service)} · ${cpuPerRequest(r.minimal)} · ${cpuPerRequest(r.bare)}`,
      r.service?.cpu?.dbCores === undefined ? '-' : `${dbPerRequest(r.service)} · ${dbPerRequest(r.minimal)}`,
      `${num(others, 2)} cores`,
    ]];
  });
  const right = head.map((_, i) => i > 0);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const pad = (cells: string[]) => cells.map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  return [TITLES[endpoint], pad(head), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(pad)].join('\n');
}
