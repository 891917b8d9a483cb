/**
 * The reference for the member API's GET /me (./me-handler.ts): look up the session by its
 * token's hash, read the member and answer the same JSON, written the short way: node:http, no
 * routing, site lookup by subdomain, CORS or security headers; the site is the demo site, read
 * once at start.
 *
 *   node --import tsx bench/minimal/me-server.ts --store sqlite --db PATH [--workers N]
 *   node --import tsx bench/minimal/me-server.ts --store postgres --db postgres://… [--workers N]
 */
import { meHandler } from './me-handler';
import { serveReference, serverArgs } from './serve';
import { openSource } from './source';

const { values, workers } = serverArgs({ store: { type: 'string', default: 'sqlite' }, db: { type: 'string' } });
if (typeof values.db !== 'string') throw new Error('--db is required');
const [store, db] = [String(values.store), values.db];

await serveReference(
  { name: 'minimal me', describe: `${store}, session and member`, start: async () => meHandler(await openSource(store, db)) },
  workers,
);
