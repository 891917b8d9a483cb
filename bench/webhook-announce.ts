/**
 * What announcing webhooks (issue 31, decision 0038) costs a write: every write that may be a
 * webhook reads its site's enabled endpoints in its transaction first. Measured on a member's
 * metadata update (`updateMemberMetadata`, one transaction), on SQLite (a file) and PostgreSQL
 * (a throwaway cluster, or `--pg URL`), in three states of the site, interleaved in rounds,
 * median µs a write:
 * - no endpoint: the read finds none (every site that uses no webhooks; the cost added to all);
 * - an endpoint that wants other events: the same read, nothing built;
 * - an endpoint that wants `member.updated`: the read, the member read back, the body, a
 *   message and a delivery written.
 * The reference beside them is the same update with the endpoint read done a second time by
 * hand, outside the write: its difference from "no endpoint" is what one read costs.
 *
 *   npx tsx bench/webhook-announce.ts [--writes 2000] [--rounds 5] [--pg postgres://…]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startTempCluster, type TempCluster } from '../scripts/lib/postgres-cluster';
import { openPostgresStore } from '../src/service/store/postgres';
import { openSqliteStore } from '../src/service/store/sqlite';
import type { Store } from '../src/service/store/store';

const { values } = parseArgs({ options: { writes: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '5' }, pg: { type: 'string' } } });
const writes = Number(values.writes);
const rounds = Number(values.rounds);
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

interface Site {
  store: Store;
  siteId: number;
  memberId: number;
}

async function siteIn(store: Store, subdomain: string): Promise<Site> {
  const site = await store.createSite({ name: subdomain, subdomain, domain: `${subdomain}.example`, defaultCurrency: 'usd', locale: 'en', adminApiEnabled: true, createdAt: Date.now() });
  const [memberId] = await store.createMembers([{ siteId: site.id, email: `m@${subdomain}.example`, status: 'approved', createdAt: Date.now() }]);
  return { store, siteId: site.id, memberId: memberId! };
}

async function perWrite({ store, siteId, memberId }: Site, extraRead: boolean): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < writes; i++) {
    await store.updateMemberMetadata(siteId, memberId, (current) => ({ ...current, n: i }));
    if (extraRead) await store.listWebhookEndpoints(siteId);
  }
  return ((performance.now() - started) * 1000) / writes;
}

async function measure(name: string, store: Store): Promise<void> {
  const none = await siteIn(store, `none-${name}`);
  const other = await siteIn(store, `other-${name}`);
  const wanted = await siteIn(store, `wanted-${name}`);
  const endpoint = { url: 'https://hooks.example.com/in', allowPrivate: false, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', source: 'cli' as const, createdAt: Date.now() };
  await store.createWebhookEndpoint({ ...endpoint, siteId: other.siteId, events: ['payment.succeeded'] });
  await store.createWebhookEndpoint({ ...endpoint, siteId: wanted.siteId, events: ['member.updated'] });
  const results = { none: [] as number[], reference: [] as number[], other: [] as number[], wanted: [] as number[] };
  await perWrite(none, false); // warm up
  for (let r = 0; r < rounds; r++) {
    results.none.push(await perWrite(none, false));
    results.reference.push(await perWrite(none, true));
    results.other.push(await perWrite(other, false));
    results.wanted.push(await perWrite(wanted, false));
  }
  const row = (label: string, list: number[]) => console.log(`${name.padEnd(10)} ${label.padEnd(52)} ${median(list).toFixed(1).padStart(8)} µs`);
  row('no endpoint (the read finds none)', results.none);
  row('reference: the same, and the endpoint read again by hand', results.reference);
  row('an endpoint wanting other events', results.other);
  row('an endpoint wanting member.updated (a delivery written)', results.wanted);
  console.log(`${name.padEnd(10)} one endpoint read ≈ ${(median(results.reference) - median(results.none)).toFixed(1)} µs of a ${median(results.none).toFixed(1)} µs write\n`);
}

console.log(`updateMemberMetadata, ${writes} writes × ${rounds} rounds, node ${process.version}\n`);
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-webhooks-'));
let cluster: TempCluster | undefined;
try {
  const sqlite = await openSqliteStore(join(dir, 'svc.db'));
  await measure('SQLite', sqlite);
  await sqlite.close();
  const url = values.pg ?? (cluster = await startTempCluster({ database: 'bench' })).url;
  const postgres = await openPostgresStore(url);
  await measure('PostgreSQL', postgres);
  await postgres.close();
} finally {
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}
