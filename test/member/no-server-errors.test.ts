/** No request to the member API yields a 5xx, whatever JSON it carries (DESIGN: "no request can produce a 500"). */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { ADA, BASE, forEachStore, GRACE, type MemberCtx } from './support';

const RUNS = 100;

/** Any JSON value, including the awkward keys and deep nesting. */
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'toString', 'email', 'password', 'customFields', ''), fc.jsonValue({ maxDepth: 3 })),
);

/** Sign-up-shaped bodies: mostly right keys, values anything or nearly right. */
function signUpBodies(ctx: MemberCtx) {
  const ids = Object.values(ctx.demo.fieldIds).map(String);
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom('developer', 'designer', 'other', '', true, false),
    fc.array(fc.constantFrom('widgets', 'apis', 'billing', 'x'), { maxLength: 4 }),
  );
  return fc.record(
    {
      email: fc.oneof(fc.emailAddress(), fc.string(), fc.jsonValue({ maxDepth: 1 })),
      password: fc.oneof(fc.string({ minLength: 0, maxLength: 300 }), fc.jsonValue({ maxDepth: 1 })),
      firstName: fc.oneof(fc.string({ maxLength: 120 }), fc.jsonValue({ maxDepth: 1 })),
      lastName: fc.string({ maxLength: 120 }),
      customFields: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 5 })), value), fc.jsonValue({ maxDepth: 2 })),
    },
    { requiredKeys: [] },
  );
}

async function statusOf(send: () => Promise<Response>): Promise<number> {
  const res = await send();
  await res.arrayBuffer();
  return res.status;
}

forEachStore((fresh) => {
  test('POST /members with any JSON body never answers 5xx', async () => {
    const ctx = await fresh();
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyJson, signUpBodies(ctx)), async (body) => {
        expect(await statusOf(() => ctx.signUp(body))).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  });

  test('POST /sessions with any JSON body never answers 5xx', async () => {
    const ctx = await fresh();
    const credentials = fc.record(
      { email: fc.oneof(fc.constantFrom(ADA.email, GRACE.email, 'ADA@demo.localhost'), fc.emailAddress(), fc.jsonValue({ maxDepth: 1 })), password: fc.oneof(fc.string({ maxLength: 300 }), fc.jsonValue({ maxDepth: 1 })) },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyJson, credentials), async (body) => {
        expect(await statusOf(() => ctx.signIn(body))).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  });

  test('PATCH /me/metadata with any JSON body never answers 5xx', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    await fc.assert(
      fc.asyncProperty(anyJson, fc.boolean(), async (body, reset) => {
        if (reset) await ctx.authed(token, `${BASE}/me/metadata`, { method: 'DELETE' });
        expect(await statusOf(() => ctx.authed(token, `${BASE}/me/metadata`, { method: 'PATCH', json: body }))).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  });

  test('raw bodies that are not JSON, or not UTF-8, never answer 5xx on any write route', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const routes: Array<[string, string]> = [
      [`${BASE}/members`, 'POST'],
      [`${BASE}/sessions`, 'POST'],
      [`${BASE}/me/metadata`, 'PATCH'],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 200 }).map((s) => new TextEncoder().encode(s)), fc.uint8Array({ maxLength: 200 })),
        fc.constantFrom(...routes),
        async (bytes, [path, method]) => {
          expect(await statusOf(() => ctx.authed(token, path, { method, raw: bytes }))).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('deeply nested sign-up and sign-in bodies are 400s, not crashes', async () => {
    const ctx = await fresh();
    const deep = `${'['.repeat(15_000)}${']'.repeat(15_000)}`;
    for (const path of ['/members', '/sessions']) {
      const res = await ctx.request(`${BASE}${path}`, { method: 'POST', raw: `{"email":${deep},"customFields":${deep}}` });
      expect(res.status).toBe(400);
    }
  });

  // Issue 26: a NUL in the path's subdomain reached PostgreSQL, which answered with an error (a 500).
  test('a subdomain with a NUL or another control character is 404 notFound, on every store', async () => {
    const ctx = await fresh();
    for (const name of ['%00', 'demo%00', 'de%01mo', '%7F', '%C2%85']) {
      const res = await ctx.request(`/member/v1/sites/${name}/config`);
      expect(res.status, name).toBe(404);
      expect((await res.json()).errors[0].code).toBe('notFound');
    }
  });
});
