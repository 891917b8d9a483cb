/** CORS of the member API: only the site's own origins (and loopback for demo) may call it. */
import { expect, test } from 'vitest';
import { ADA, BASE, expectError, forEachStore, jsonOf, OTHER_BASE, type MemberCtx } from './support';

const DEMO_ALLOWED = ['http://demo.localhost', 'https://www.demo.localhost:8443', 'http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080'];
const OTHER_ALLOWED = ['https://shop.other.example', 'http://other.example', 'https://a.b.other.example:444'];
const REFUSED_EVERYWHERE = [
  'https://evil.example',
  'https://demo.localhost.evil.example',
  'http://evildemo.localhost',
  'null',
  'ftp://demo.localhost',
  'not an origin',
  'http://demo.localhost/path',
];

/** A refusal the refused page can read (so the widget can tell its developer why): 403, the site's domain named, nothing more allowed. */
async function expectReadableRefusal(res: Response, origin: string, domain: string) {
  const body = await expectError(res, 403, 'originNotAllowed');
  expect(JSON.stringify(body)).toContain(`it answers pages on ${domain} and its subdomains`);
  expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  expect(res.headers.get('access-control-allow-methods')).toBeNull();
  expect((res.headers.get('vary') ?? '').toLowerCase()).toContain('origin');
}

function expectCors(res: Response, origin: string) {
  expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  expect((res.headers.get('vary') ?? '').toLowerCase()).toContain('origin');
}

function expectNoCors(res: Response) {
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
}

async function preflight(ctx: MemberCtx, path: string, origin: string, method = 'PATCH') {
  return ctx.request(path, {
    method: 'OPTIONS',
    origin,
    headers: { 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
  });
}

forEachStore((fresh) => {
  test.each(DEMO_ALLOWED)('the demo site answers %s with Access-Control-Allow-Origin echoing it and Vary: Origin', async (origin) => {
    const ctx = await fresh();
    const res = await ctx.request(`${BASE}/config`, { origin });
    await jsonOf(res, 200);
    expectCors(res, origin);
  });

  test.each(DEMO_ALLOWED)('an error answer to the allowed origin %s carries the CORS headers too', async (origin) => {
    const ctx = await fresh();
    const res = await ctx.request(`${BASE}/me`, { origin });
    await expectError(res, 401, 'unauthenticated');
    expectCors(res, origin);
  });

  test('validation errors, 405s, 404s and 429s to an allowed origin carry the CORS headers', async () => {
    const ctx = await fresh();
    const origin = 'http://localhost:5173';
    const bad = await ctx.request(`${BASE}/members`, { method: 'POST', origin, json: { email: 'x' } });
    await expectError(bad, 400, 'invalidField');
    expectCors(bad, origin);
    const wrongMethod = await ctx.request(`${BASE}/me`, { method: 'PUT', origin });
    await expectError(wrongMethod, 405, 'methodNotAllowed');
    expectCors(wrongMethod, origin);
    const unknownRoute = await ctx.request(`${BASE}/nowhere`, { origin });
    await expectError(unknownRoute, 404, 'notFound');
    expectCors(unknownRoute, origin);
    for (let i = 0; i < 5; i++) await ctx.request(`${BASE}/sessions`, { method: 'POST', origin, json: { email: ADA.email, password: 'wrong' } });
    const limited = await ctx.request(`${BASE}/sessions`, { method: 'POST', origin, json: ADA });
    await expectError(limited, 429, 'rateLimited');
    expectCors(limited, origin);
    // The widget has to be able to read Retry-After.
    expect((limited.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('retry-after');
  });

  test('a successful sign-in answer to an allowed origin carries the CORS headers', async () => {
    const ctx = await fresh();
    const origin = 'https://www.demo.localhost:8443';
    const res = await ctx.request(`${BASE}/sessions`, { method: 'POST', origin, json: ADA });
    await jsonOf(res, 201);
    expectCors(res, origin);
  });

  test.each(OTHER_ALLOWED)('the other site answers its own origin %s with the CORS headers', async (origin) => {
    const ctx = await fresh();
    const res = await ctx.request(`${OTHER_BASE}/config`, { origin });
    await jsonOf(res, 200);
    expectCors(res, origin);
  });

  test.each(['http://localhost:5173', 'http://127.0.0.1:3000', 'http://demo.localhost'])(
    'the other site refuses %s with 403 originNotAllowed: loopback is for the demo site only',
    async (origin) => {
      const ctx = await fresh();
      const res = await ctx.request(`${OTHER_BASE}/config`, { origin });
      await expectReadableRefusal(res, origin, ctx.other.site.domain);
    },
  );

  test.each(REFUSED_EVERYWHERE)('origin %s is refused with 403 originNotAllowed; a web page may read the refusal of a GET, naming the site’s domain, and nothing else', async (origin) => {
    const ctx = await fresh();
    for (const [path, domain] of [[`${BASE}/config`, ctx.demo.site.domain], [`${BASE}/me`, ctx.demo.site.domain], [`${OTHER_BASE}/config`, ctx.other.site.domain]] as const) {
      const res = await ctx.request(path, { origin });
      if (/^https?:\/\/[^/]+$/.test(origin)) {
        await expectReadableRefusal(res, origin, domain);
      } else {
        // Not a web page's origin (`null`, a path, another scheme): not even the refusal is readable.
        await expectError(res, 403, 'originNotAllowed');
        expectNoCors(res);
      }
    }
    // A write is refused as unreadably as ever (its preflight too: below).
    const write = await ctx.request(`${BASE}/sessions`, { method: 'POST', origin, json: ADA });
    await expectError(write, 403, 'originNotAllowed');
    expectNoCors(write);
  });

  test('a refused origin cannot sign in: 403, no session, no login event', async () => {
    const ctx = await fresh();
    const res = await ctx.request(`${BASE}/sessions`, { method: 'POST', origin: 'https://evil.example', json: ADA });
    const body = await expectError(res, 403, 'originNotAllowed');
    expect(JSON.stringify(body)).not.toContain('svc_session_');
    const events = await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: ctx.demo.memberIds.ada! }, { limit: 10 });
    expect(events.items).toEqual([]);
  });

  test('a refused origin cannot change metadata even with a valid token', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const res = await ctx.request(`${BASE}/me/metadata`, { method: 'PATCH', origin: 'https://evil.example', token, json: { hacked: true } });
    await expectError(res, 403, 'originNotAllowed');
    expect(await ctx.store.getMemberMetadata(ctx.demo.site.id, ctx.demo.memberIds.ada!)).toStrictEqual({ theme: 'dark' });
  });

  test('a refused origin cannot sign a session out', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const res = await ctx.request(`${BASE}/sessions/current`, { method: 'DELETE', origin: 'https://evil.example', token });
    await expectError(res, 403, 'originNotAllowed');
    expect((await ctx.authed(token, `${BASE}/me`)).status).toBe(200);
  });

  test.each([
    ['/me/metadata', 'PATCH'],
    ['/me/metadata', 'DELETE'],
    ['/sessions/current', 'DELETE'],
    ['/members', 'POST'],
  ])('an OPTIONS preflight for %s from an allowed origin is 204 allowing PATCH, DELETE, Authorization and Content-Type', async (path, method) => {
    const ctx = await fresh();
    const origin = 'http://localhost:5173';
    const res = await preflight(ctx, `${BASE}${path}`, origin, method);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expectCors(res, origin);
    const methods = (res.headers.get('access-control-allow-methods') ?? '').toUpperCase().split(/\s*,\s*/);
    expect(methods).toEqual(expect.arrayContaining(['PATCH', 'DELETE', method]));
    const headers = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(headers).toEqual(expect.arrayContaining(['authorization', 'content-type']));
  });

  test('an OPTIONS preflight from a refused origin is 403 with no CORS headers', async () => {
    const ctx = await fresh();
    const res = await preflight(ctx, `${BASE}/me/metadata`, 'https://evil.example');
    expect(res.status).toBe(403);
    expectNoCors(res);
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
  });

  test('requests without an Origin are served, with no CORS headers', async () => {
    const ctx = await fresh();
    const config = await ctx.request(`${BASE}/config`, { origin: null });
    await jsonOf(config, 200);
    expectNoCors(config);
    const signIn = await ctx.request(`${BASE}/sessions`, { method: 'POST', origin: null, json: ADA });
    const { token } = await jsonOf<{ token: string }>(signIn, 201);
    expectNoCors(signIn);
    const me = await ctx.request(`${BASE}/me`, { origin: null, token });
    await jsonOf(me, 200);
    expectNoCors(me);
  });

  test('answers without CORS headers still say Vary: Origin, so a shared cache cannot hand them to a page', async () => {
    const ctx = await fresh();
    for (const res of [
      await ctx.request(`${BASE}/config`, { origin: null }),
      await ctx.request(`${BASE}/config`, { origin: 'null' }),
      await ctx.request(`${BASE}/sessions`, { method: 'POST', origin: 'https://evil.example', json: ADA }),
      await ctx.request(`${BASE}/me`, { origin: null }),
    ]) {
      expectNoCors(res);
      expect(res.headers.get('vary')).toBe('Origin');
    }
  });

  test('an unknown subdomain is 404 notFound to any origin, readable by the calling page', async () => {
    const ctx = await fresh();
    const res = await ctx.request('/member/v1/sites/nosuch/config', { origin: 'https://somewhere.example' });
    await expectError(res, 404, 'notFound');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://somewhere.example');
  });
});
