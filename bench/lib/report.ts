/** The bench's printed table, its target checks, and the JSON record under bench/results/. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioResult } from './load';

export interface Check {
  name: string;
  pass: boolean;
  detail: string;
}

const num = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function pad(cells: string[], widths: number[], alignRight: boolean[]): string {
  return cells.map((c, i) => (alignRight[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
}

/** scenario | req/s | p50 | p99 | mean | × bare | non-2xx/errors | CPU of other processes */
export function formatTable(results: ScenarioResult[], baselineRps: number): string {
  const head = ['scenario', 'req/s (avg)', 'p50 ms', 'p99 ms', 'mean ms', '× bare', 'non-2xx/err', 'other CPU'];
  const rows = results.map((r) => [
    r.name,
    num(r.requestsPerSec),
    num(r.latencyMs.p50),
    num(r.latencyMs.p99),
    num(r.latencyMs.mean, 2),
    baselineRps > 0 ? `${num(r.requestsPerSec / baselineRps, 2)}×` : '-',
    `${r.non2xx}/${r.errors}`,
    r.cpu ? `${num(r.cpu.othersCores, 2)} cores` : '?',
  ]);
  const right = head.map((_, i) => i > 0);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [pad(head, widths, right), rule, ...rows.map((row) => pad(row, widths, right))].join('\n');
}

export interface CheckInputs {
  bare: ScenarioResult;
  page1: ScenarioResult;
  deep: ScenarioResult;
  page1Again: ScenarioResult;
  deepPage: number;
  peakRssMB: number | undefined;
}

export function targetChecks({ bare, page1, deep, page1Again, deepPage, peakRssMB }: CheckInputs): Check[] {
  const ratio = bare.requestsPerSec > 0 ? page1.requestsPerSec / bare.requestsPerSec : 0;
  // Latency is whole milliseconds in autocannon, so a 0 ms page-1 p50 is taken as 1 ms.
  const p50Ratio = deep.latencyMs.p50 / Math.max(page1Again.latencyMs.p50, 1);
  const rpsRatio = deep.requestsPerSec > 0 ? page1Again.requestsPerSec / deep.requestsPerSec : Infinity;
  return [
    {
      name: 'svc /members (25) ≥ 0.5× bare req/s',
      pass: ratio >= 0.5,
      detail: `${num(page1.requestsPerSec)} vs ${num(bare.requestsPerSec)} req/s = ${num(ratio, 2)}×`,
    },
    {
      name: `deep page ${num(deepPage)} within 1.2× of page 1 (p50 and req/s)`,
      pass: p50Ratio <= 1.2 && rpsRatio <= 1.2,
      detail:
        `p50 ${num(deep.latencyMs.p50)} vs ${num(page1Again.latencyMs.p50)} ms = ${num(p50Ratio, 2)}×; ` +
        `req/s ${num(deep.requestsPerSec)} vs ${num(page1Again.requestsPerSec)} = page 1 is ${num(rpsRatio, 2)}× faster`,
    },
    {
      name: 'svc peak RSS < 300 MB',
      pass: peakRssMB !== undefined && peakRssMB < 300,
      detail: peakRssMB === undefined ? 'not measured' : `VmHWM ${num(peakRssMB, 1)} MB`,
    },
  ];
}

export function formatChecks(checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  return checks.map((c) => `${c.pass ? 'PASS' : 'MISS'}  ${c.name.padEnd(width)}  ${c.detail}`).join('\n');
}

/** Writes the whole record as bench/results/<name>-<timestamp>.json; returns the path. */
export function writeResults(benchDir: string, record: object, name = 'admin-api'): string {
  const dir = join(benchDir, 'results');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = join(dir, `${name}-${stamp}.json`);
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  return path;
}
