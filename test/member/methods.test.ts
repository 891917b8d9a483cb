/** Routes and methods of the member API: 405 with Allow, 404 for unknown paths, JSON everywhere. */
import { expect, test } from 'vitest';
import { ADA, BASE, expectError, forEachStore } from './support';

forEachStore((fresh) => {
  test('PUT /me is 405 methodNotAllowed with an Allow header naming GET and PATCH', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const res = await ctx.authed(token, `${BASE}/me`, { method: 'PUT', json: { name: 'x' } });
    await expectError(res, 405, 'methodNotAllowed');
    expect(res.headers.get('allow')?.split(/\s*,\s*/)).toEqual(['GET', 'PATCH']);
  });

  test.each([
    ['POST', '/config', ['GET']],
    ['GET', '/members', ['POST']],
    ['DELETE', '/members', ['POST']],
    ['GET', '/sessions', ['POST']],
    ['GET', '/sessions/current', ['DELETE']],
    ['POST', '/me/metadata', ['GET', 'PATCH', 'DELETE']],
    ['PUT', '/me/metadata', ['GET', 'PATCH', 'DELETE']],
    ['DELETE', '/me', ['GET', 'PATCH']],
    ['GET', '/me/email', ['PUT']],
    ['PATCH', '/me/password', ['PUT']],
    ['PUT', '/memberships', ['GET', 'POST']],
  ])('%s %s is 405 with an Allow header listing the methods the path takes', async (method, path, allow) => {
    const ctx = await fresh();
    const res = await ctx.request(`${BASE}${path}`, { method });
    await expectError(res, 405, 'methodNotAllowed');
    expect(res.headers.get('allow')?.split(/\s*,\s*/).sort()).toEqual([...allow].sort());
  });

  test('a 405 changes nothing: PUT /me/metadata leaves the metadata as it was', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    await expectError(await ctx.authed(token, `${BASE}/me/metadata`, { method: 'PUT', json: {} }), 405, 'methodNotAllowed');
    expect(await ctx.store.getMemberMetadata(ctx.demo.site.id, ctx.demo.memberIds.ada!)).toStrictEqual({ theme: 'dark' });
  });

  test.each(['/nowhere', '/me/extra', '/sessions/other', '/members/1', '/config/x'])(
    'GET %s under the site is 404 notFound',
    async (path) => {
      const ctx = await fresh();
      await expectError(await ctx.request(`${BASE}${path}`), 404, 'notFound');
    },
  );

  test('a path under the member API with no site part is 404 notFound', async () => {
    const ctx = await fresh();
    await expectError(await ctx.request('/member/v1/sites'), 404, 'notFound');
    await expectError(await ctx.request('/member/v1/config', { origin: null }), 404, 'notFound');
  });

  test('every answer is application/json except the 204s, which have no body', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const f = ctx.demo.fieldIds;
    const requests: Array<() => Promise<Response>> = [
      () => ctx.request(`${BASE}/config`),
      () => ctx.request('/member/v1/sites/nosuch/config'),
      () => ctx.request(`${BASE}/config`, { origin: 'https://evil.example' }),
      () => ctx.signUp({ email: 'json@example.com', password: 'a good password', customFields: { [f.role!]: 'other', [f.terms!]: true } }),
      () => ctx.signUp({}),
      () => ctx.signUp({ email: ADA.email, password: 'a good password', customFields: { [f.role!]: 'other', [f.terms!]: true } }),
      () => ctx.request(`${BASE}/members`, { method: 'POST', raw: 'x' }),
      () => ctx.signIn(ADA),
      () => ctx.signIn({ email: ADA.email, password: 'wrong' }),
      () => ctx.authed(token, `${BASE}/me`),
      () => ctx.request(`${BASE}/me`),
      () => ctx.authed(token, `${BASE}/me/metadata`),
      () => ctx.authed(token, `${BASE}/me/metadata`, { method: 'PATCH', json: { a: 1 } }),
      () => ctx.authed(token, `${BASE}/me/metadata`, { method: 'PATCH', json: [1] }),
      () => ctx.authed(token, `${BASE}/me/metadata`, { method: 'PATCH', json: { big: 'x'.repeat(20_000) } }),
      () => ctx.authed(token, `${BASE}/me`, { method: 'PUT' }),
      () => ctx.request(`${BASE}/nowhere`),
      () => ctx.signUp({ email: 'x', password: 'p'.repeat(70_000) }),
      () => ctx.authed(token, `${BASE}/me/metadata`, { method: 'DELETE' }),
      () => ctx.request(`${BASE}/me`, { method: 'OPTIONS' }),
      () => ctx.request(`${BASE}/me`, { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' } }),
      () => ctx.authed(token, `${BASE}/sessions/current`, { method: 'DELETE' }),
    ];
    const seen = new Set<number>();
    for (const [i, send] of requests.entries()) {
      const res = await send();
      const text = await res.text();
      seen.add(res.status);
      if (res.status === 204) {
        expect(text, `request ${i}`).toBe('');
      } else {
        expect(res.headers.get('content-type'), `request ${i} (${res.status})`).toMatch(/^application\/json\b/);
        expect(() => JSON.parse(text), `request ${i}`).not.toThrow();
      }
    }
    expect([...seen].sort()).toEqual(expect.arrayContaining([200, 201, 204, 400, 401, 403, 404, 405, 409, 413]));
  });
});
