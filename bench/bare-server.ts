/**
 * The ceiling for the benches: a bare node:http server that answers every request with a fixed
 * JSON body, by default an array of 25 members shaped like GET /admin/v1/members items. No
 * routing, auth, database or serialisation per request: what node:http reaches on this machine.
 *
 *   node --import tsx bench/bare-server.ts [--workers N] [--bodies FILE]
 *
 * `--bodies FILE` names a JSON object of path → body text: a request whose path (query left
 * out) is one of them gets that body (request-cost.ts passes the service's own answers, so the
 * bytes on the wire are the same); any other path gets the default. `--workers N` answers from
 * N node:cluster workers on one port (./minimal/serve.ts). Env PORT (default 0 = a free port),
 * HOST. Prints `[bare] serving on http://127.0.0.1:PORT` on stderr once listening.
 */
import { readFileSync } from 'node:fs';
import { serveReference, serverArgs } from './minimal/serve';

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

const answer = (text: string) => {
  const body = Buffer.from(text);
  return { body, headers: { 'content-type': 'application/json', 'content-length': String(body.length) } };
};
const fallback = answer(JSON.stringify(members));

const { values, workers } = serverArgs({ bodies: { type: 'string' } });
const byPath = new Map(
  typeof values.bodies === 'string'
    ? Object.entries(JSON.parse(readFileSync(values.bodies, 'utf8')) as Record<string, string>).map(([path, text]) => [path, answer(text)])
    : [],
);

await serveReference(
  {
    name: 'bare',
    describe: `${fallback.body.length} bytes per response${byPath.size ? `, ${byPath.size} fixed bodies by path` : ''}`,
    start: () => (req, res) => {
      // Drain any request body so keep-alive connections stay usable.
      req.resume();
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      const { body, headers } = byPath.get(query === -1 ? url : url.slice(0, query)) ?? fallback;
      res.writeHead(200, headers);
      res.end(body);
    },
  },
  workers,
);
