/**
 * GET /healthz and GET /readyz (issue 30), as an operator's probes read them: liveness names the
 * part that is down (the database, asked on every probe) and keeps its error for the log; readiness
 * turns 503 once a graceful stop begins (test/cli/graceful-stop.test.ts has it in `svc serve`).
 */
import { expect, test, vi } from 'vitest';
import { createServiceApp } from '../src/service/app';
import { createMemoryStore } from '../src/service/store/memory';
import { failingStore } from './support/failing-store';

const clock = () => Date.parse('2026-03-01T12:00:00Z');

async function probe(app: { fetch: (request: Request) => Response | Promise<Response> }, path: string) {
  const res = await app.fetch(new Request(`http://svc.test${path}`));
  return { status: res.status, cache: res.headers.get('cache-control'), body: (await res.json()) as unknown };
}

test('/healthz asks the database: 200 {ok, database: up}; 503 {ok: false, database: down} when it does not answer, the error logged only', async () => {
  const store = createMemoryStore();
  let down = false;
  const flaky = failingStore(store, ['getSite'], 'connection refused at 10.0.0.5', () => down);
  const app = await createServiceApp({ store: flaky, clock });
  expect(await probe(app, '/healthz')).toEqual({ status: 200, cache: 'no-store', body: { ok: true, database: 'up' } });
  down = true;
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const answer = await probe(app, '/healthz');
    expect(answer).toEqual({ status: 503, cache: 'no-store', body: { ok: false, database: 'down' } });
    expect(JSON.stringify(answer)).not.toContain('10.0.0.5');
    expect(logged.mock.calls.map(([line]) => String(line)).join('\n')).toContain('connection refused at 10.0.0.5');
  } finally {
    logged.mockRestore();
  }
  down = false;
  expect((await probe(app, '/healthz')).status).toBe(200);
});

test('/readyz: 200 {ready: true} while serving, 503 {ready: false} once the process is stopping', async () => {
  let stopping = false;
  const app = await createServiceApp({ store: createMemoryStore(), clock, stopping: () => stopping });
  expect(await probe(app, '/readyz')).toEqual({ status: 200, cache: 'no-store', body: { ready: true } });
  stopping = true;
  expect(await probe(app, '/readyz')).toEqual({ status: 503, cache: 'no-store', body: { ready: false } });
});

test('a request that fails is logged with the id svc serve gave it (the access line’s), and answered 500 internalError', async () => {
  const failing = failingStore(createMemoryStore(), ['getSiteBySubdomain'], 'disk gone');
  const app = await createServiceApp({ store: failing, clock });
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const res = await app.fetch(new Request('http://svc.test/member/v1/sites/shop/config'), { requestId: 'edge-7' });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe('internalError');
    expect(logged.mock.calls.map(([line]) => String(line))).toEqual([expect.stringMatching(/^\[svc\] request edge-7 failed: Error: disk gone/)]);
  } finally {
    logged.mockRestore();
  }
});
