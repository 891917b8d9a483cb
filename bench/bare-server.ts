/**
 * The baseline for the Admin API bench: a bare node:http server that answers every request
 * with the same JSON array of 25 members shaped like GET /admin/v1/members items. No routing,
 * auth, database or serialisation per request: the ceiling node:http reaches on this machine.
 *
 * Run: node --import tsx bench/bare-server.ts   (env PORT, default 0 = a free port)
 * Prints `[bare] serving on http://127.0.0.1:PORT` on stderr once listening.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson'];
const start = Date.UTC(2024, 0, 1);

const members = Array.from({ length: 25 }, (_, i) => {
  const firstName = FIRST[i % FIRST.length]!;
  const lastName = LAST[(i * 3) % LAST.length]!;
  return {
    id: 1000 + i,
    email: `${firstName}.${lastName}.1${i}@example.com`.toLowerCase(),
    firstName,
    lastName,
    status: 'approved',
    createdAt: new Date(start + i * 3_600_000).toISOString(),
  };
});
const body = Buffer.from(JSON.stringify(members));
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };

const server = createServer((req, res) => {
  // Drain any request body so keep-alive connections stay usable.
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address() as AddressInfo;
  process.stderr.write(`[bare] serving on http://${address}:${port} (${body.length} bytes per response)\n`);
});

const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
