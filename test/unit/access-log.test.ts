/**
 * The access line a request (src/service/access-log.ts): an id given back as X-Request-Id and
 * passed on to the app; a proxy's id kept when it looks like one; the path without its query; the
 * status, also of an answer whose headers cannot change and of a handler that throws.
 */
import { expect, test } from 'vitest';
import { withAccessLog, type AccessLine } from '../../src/service/access-log';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function logged(handler: (request: Request) => Response | Promise<Response>) {
  const lines: AccessLine[] = [];
  const seen: Array<string | undefined> = [];
  const fetch = withAccessLog((request, connection) => (seen.push(connection?.requestId), handler(request)), (line) => lines.push(line));
  return { fetch, lines, seen };
}

test('a new id for each request, answered as X-Request-Id and given to the app beside the request; the path without its query', async () => {
  const { fetch, lines, seen } = logged(() => new Response('{}', { status: 201 }));
  const answer = await fetch(new Request('http://svc.test/member/v1/sites/shop/sessions?token=svc_session_secret&code=123456', { method: 'POST', body: '{"password":"hunter2hunter2"}' }));
  const id = answer.headers.get('x-request-id')!;
  expect(id).toMatch(UUID);
  expect(seen).toEqual([id]);
  expect(lines).toEqual([{ reqId: id, method: 'POST', path: '/member/v1/sites/shop/sessions', status: 201, ms: expect.any(Number) }]);
  expect(JSON.stringify(lines)).not.toMatch(/secret|123456|hunter2/);
  const again = await fetch(new Request('http://svc.test/healthz'));
  expect(again.headers.get('x-request-id')).not.toBe(id);
});

test('a proxy’s X-Request-Id is kept when it looks like one; anything else gets a new id', async () => {
  const { fetch, lines } = logged(() => new Response(null, { status: 204 }));
  const kept = await fetch(new Request('http://svc.test/healthz', { headers: { 'x-request-id': 'edge-42.a_b' } }));
  expect(kept.headers.get('x-request-id')).toBe('edge-42.a_b');
  for (const bad of ['', 'a b', 'x'.repeat(65), 'id\u0007', '<script>']) {
    const answer = await fetch(new Request('http://svc.test/healthz', { headers: bad ? { 'x-request-id': bad } : {} }));
    expect(answer.headers.get('x-request-id'), bad).toMatch(UUID);
  }
  expect(lines.map((l) => l.reqId)).not.toContain('<script>');
});

test('an answer with immutable headers is copied to carry the id; a handler that throws is logged as 500 and still throws', async () => {
  const frozen = Response.redirect('http://svc.test/elsewhere', 302);
  const { fetch, lines } = logged(() => frozen);
  const answer = await fetch(new Request('http://svc.test/go'));
  expect([answer.status, answer.headers.get('location')]).toEqual([302, 'http://svc.test/elsewhere']);
  expect(answer.headers.get('x-request-id')).toMatch(UUID);
  const failing = logged(() => Promise.reject(new Error('boom')));
  await expect(failing.fetch(new Request('http://svc.test/x'))).rejects.toThrow('boom');
  expect(failing.lines).toMatchObject([{ path: '/x', status: 500 }]);
  expect(lines).toHaveLength(1);
});
