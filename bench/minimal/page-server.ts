/**
 * The reference for GET /admin/v1/members: the same keyset page on the same database, written
 * the short way (./page-handler.ts). node:http, one prepared query (`… WHERE site_id = ? AND id
 * > ? ORDER BY id LIMIT 26`), the same 25 resources' fields as JSON, and nothing else: no
 * routing, key, scope, rate limit, cursor MAC or security headers.
 *
 *   node --import tsx bench/minimal/page-server.ts --store sqlite --db PATH [--workers N]
 *   node --import tsx bench/minimal/page-server.ts --store postgres --db postgres://… [--workers N]
 */
import { PAGE, pageHandler } from './page-handler';
import { serveReference, serverArgs } from './serve';
import { openSource } from './source';

const { values, workers } = serverArgs({ store: { type: 'string', default: 'sqlite' }, db: { type: 'string' } });
if (typeof values.db !== 'string') throw new Error('--db is required');
const [store, db] = [String(values.store), values.db];

await serveReference(
  { name: 'minimal page', describe: `${store}, keyset page of ${PAGE}`, start: async () => pageHandler(await openSource(store, db)) },
  workers,
);
