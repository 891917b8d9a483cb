/**
 * Every member API route that reads a body stops reading at 64 KiB (audit, issue 12): a chunked
 * upload with no Content-Length is cut off while it streams, not buffered whole and measured
 * afterwards. The stream below counts what the service pulled from it.
 */
import { expect, test } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/service/member/body';
import { ADA, BASE, expectError, forEachStore, ORIGIN } from './support';

const CHUNK = 16 * 1024;

/** A body of `total` bytes of JSON-ish text, made on demand, that records how much was read. */
function countingBody(total: number) {
  const counter = { pulled: 0, cancelled: false };
  const chunk = new TextEncoder().encode('x'.repeat(CHUNK));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      counter.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, counter };
}

const BODY_ROUTES: ReadonlyArray<[method: string, path: string, authed: boolean]> = [
  ['POST', '/members', false],
  ['POST', '/sessions', false],
  ['PATCH', '/me', true],
  ['PUT', '/me/email', true],
  ['PUT', '/me/password', true],
  ['PATCH', '/me/metadata', true],
  ['POST', '/memberships', true],
  ['PUT', '/payment-method', true],
];

forEachStore((fresh) => {
  test.each(BODY_ROUTES)('%s %s: a 64 MiB chunked body is answered 413 after reading at most the limit', async (method, path, authed) => {
    const ctx = await fresh();
    const token = authed ? (await ctx.session(ADA)).token : undefined;
    const { stream, counter } = countingBody(64 * 1024 * 1024);
    const headers: Record<string, string> = { origin: ORIGIN, 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await ctx.app.request(`http://svc.test${BASE}${path}`, { method, headers, body: stream, duplex: 'half' } as RequestInit);
    await expectError(res, 413, 'invalidBody');
    expect(counter.pulled).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * CHUNK);
    expect(counter.cancelled).toBe(true);
  });

  test('a chunked body just under the limit is read whole (and judged as JSON)', async () => {
    const ctx = await fresh();
    const { stream, counter } = countingBody(MAX_BODY_BYTES - CHUNK);
    const res = await ctx.app.request(`http://svc.test${BASE}/sessions`, {
      method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json' }, body: stream, duplex: 'half',
    } as RequestInit);
    await expectError(res, 400, 'invalidBody');
    expect(counter.pulled).toBe(MAX_BODY_BYTES - CHUNK);
  });
});
