/**
 * Whether the time of a request for a mail tells who is a member (audit, issue 26: a member's
 * reset and code requests took 0.2–0.3 ms longer, and were the slower one 78–82% of the time).
 * Asks for a reset link, then a sign-in code, for a member's address and for an unknown one, in
 * pairs in random order with random pauses between, on SQLite (in-process, the member API alone),
 * and prints for each: the median answer time of each, and in how many pairs the member's was the
 * slower one. 50% is no signal; the reference is the unknown address, measured in the same run.
 *
 *   npx tsx bench/mail-request-timing.ts [--pairs 2000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FIXTURES } from '../mock-server/fixtures';
import { loadFixtures } from '../mock-server/load-fixtures';
import { createServiceApp } from '../src/service/app';
import { createPasswordHasher, TEST_SCRYPT } from '../src/service/auth/passwords';
import { portableScrypt } from '../src/service/auth/portable-scrypt';
import { SEND_WINDOW_MS } from '../src/service/member/mail-flows';
import { openSqliteStore } from '../src/service/store/sqlite';

const { values } = parseArgs({ options: { pairs: { type: 'string', default: '2000' } } });
const pairs = Number(values.pairs);
const WARMUP = Math.min(500, Math.floor(pairs / 4));

const dir = mkdtempSync(join(tmpdir(), 'svc-mail-timing-'));
const store = openSqliteStore(join(dir, 'svc.db'));
let now = Date.parse('2026-06-01T12:00:00Z');
await loadFixtures(store, createPasswordHasher(portableScrypt, TEST_SCRYPT), FIXTURES, now);
// The limits per client and per address are not what is measured: off, and the clock moved past each window.
const app = await createServiceApp({ store, clock: () => now, mailRateLimit: 'off', signinRateLimit: 'off' });

const ask = async (path: string, email: string): Promise<number> => {
  const started = process.hrtime.bigint();
  const res = await app.request(`/member/v1/sites/demo${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  await res.arrayBuffer();
  if (res.status !== 202) throw new Error(`${path} answered ${res.status}`);
  return Number(process.hrtime.bigint() - started) / 1000;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`${pairs} pairs each (after ${WARMUP} to warm up), SQLite, in-process; µs from request to the answer's last byte`);
console.log('request             member median   unknown median   member slower in');
for (const path of ['/password-reset', '/sign-in-codes']) {
  const member: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < pairs + WARMUP; i++) {
    now += SEND_WINDOW_MS + 1;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    const memberFirst = Math.random() < 0.5;
    const a = memberFirst ? await ask(path, 'ada@demo.localhost') : await ask(path, `nobody${i}@demo.localhost`);
    const b = memberFirst ? await ask(path, `nobody${i}@demo.localhost`) : await ask(path, 'ada@demo.localhost');
    if (i < WARMUP) continue;
    member.push(memberFirst ? a : b);
    unknown.push(memberFirst ? b : a);
  }
  const slower = member.filter((m, i) => m > unknown[i]!).length;
  console.log(
    `${path.padEnd(20)}${median(member).toFixed(0).padStart(13)}${median(unknown).toFixed(0).padStart(17)}${`${((100 * slower) / pairs).toFixed(1)}%`.padStart(19)}`,
  );
}
await store.close();
rmSync(dir, { recursive: true, force: true });
