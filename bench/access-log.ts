/**
 * What `svc serve`'s access line costs a request (src/service/access-log.ts with the pino logger
 * of src/cli/logger.ts writing JSON to /dev/null): the same trivial handler called bare and
 * wrapped, interleaved in rounds, median µs a call of each. The request-cost benches run the
 * service at SVC_LOG_LEVEL=warn, so this is what production's default `info` adds to their figures.
 *
 *   npx tsx bench/access-log.ts [--calls 20000] [--rounds 7]
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { withAccessLog } from '../src/service/access-log';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '7' } } });
const calls = Number(values.calls);
const rounds = Number(values.rounds);

const logger = pino({ level: 'info', base: { pid: process.pid } }, pino.destination({ dest: '/dev/null', sync: true }));
const handler = () => new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } });
const logged = withAccessLog(handler, (line) => logger.info(line, 'request'));
const quiet = withAccessLog(handler, () => undefined);

async function perCall(fetch: (request: Request) => Response | Promise<Response>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls; i++) await fetch(new Request('http://svc.test/member/v1/sites/demo/me', { headers: { authorization: 'Bearer x' } }));
  return ((performance.now() - started) * 1000) / calls;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const results = { bare: [] as number[], idOnly: [] as number[], logged: [] as number[] };
await perCall(logged); // warm up
for (let r = 0; r < rounds; r++) {
  results.bare.push(await perCall(handler));
  results.idOnly.push(await perCall(quiet));
  results.logged.push(await perCall(logged));
}
const row = (name: string, list: number[]) => console.log(`${name.padEnd(34)} ${median(list).toFixed(2).padStart(7)} µs a call`);
row('handler alone', results.bare);
row('with the request id, no line', results.idOnly);
row('with the request id and its line', results.logged);
console.log(`the access line adds ${(median(results.logged) - median(results.bare)).toFixed(2)} µs a request (${calls} calls × ${rounds} rounds)`);
