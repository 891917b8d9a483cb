/**
 * The rate limit: per key, over every endpoint, answered with 429 rateLimited and a Retry-After
 * the limit keeps to. Each test builds its own limited app over its own clock. The allowance is
 * the store's, shared by every app on it as by every process (issue 16), so each test's clock
 * starts an hour after the one before's, when the keys' earlier requests count no more.
 */
import { expect, test } from 'vitest';
import { fixtureClock, forEachStore, HOUR, SECOND, storeFingerprint, useAdminFixture } from '../support/admin-fixture';
import { actionRequests, call, expectAccessDenied, expectError, expectInvalidParameters, routeUrls, UNKNOWN_KEY } from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('over the rate limit a key gets 429 rateLimited with an integer Retry-After, and is let in again after it', async () => {
    const fx = fixture();
    const clock = fixtureClock(fx.clock() + HOUR);
    const app = await fx.makeApp({ rateLimit: { limit: 3, windowMs: 60 * SECOND }, clock });
    const key = fx.keys.demo.all;
    for (let i = 0; i < 3; i++) expect((await call(app, '/sites', { key })).status).toBe(200);
    const limited = await call(app, '/sites', { key });
    expectError(limited, 429, 'rateLimited');
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    const seconds = Number(retryAfter);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    // Still limited a second before Retry-After runs out, let in once it has.
    clock.advance((seconds - 1) * SECOND);
    expectError(await call(app, '/sites', { key }), 429, 'rateLimited');
    clock.advance(SECOND);
    expect((await call(app, '/sites', { key })).status).toBe(200);
    // A whole window later the full allowance is back.
    clock.advance(60 * SECOND);
    for (let i = 0; i < 3; i++) expect((await call(app, '/sites', { key })).status).toBe(200);
    expectError(await call(app, '/sites', { key }), 429, 'rateLimited');
  });

  test('the rate limit is per key and counts requests to every endpoint', async () => {
    const fx = fixture();
    const app = await fx.makeApp({ rateLimit: { limit: 3, windowMs: 60 * SECOND }, clock: fixtureClock(fx.clock() + 2 * HOUR) });
    const key = fx.keys.demo.all;
    for (const path of ['/plans', '/members', '/memberEvents']) expect((await call(app, path, { key })).status).toBe(200);
    for (const route of await routeUrls(fx)) expectError(await call(app, route.url, { key }), 429, 'rateLimited');
    // The owner's actions too, and none is done.
    const before = await storeFingerprint(fx);
    for (const action of await actionRequests(fx)) {
      expectError(await call(app, action.url, { key, method: action.method, body: action.body }), 429, 'rateLimited');
    }
    expect(await storeFingerprint(fx)).toBe(before);
    expect((await call(app, '/members', { key: fx.keys.demo.only['read.members'] })).status).toBe(200);
    expect((await call(app, '/sites', { key: fx.keys.other.all })).status).toBe(200);
  });

  test('429 comes after the key check and before the 403, the scope 404 and parameter 400s', async () => {
    const fx = fixture();
    const app = await fx.makeApp({ rateLimit: { limit: 1, windowMs: 60 * SECOND }, clock: fixtureClock(fx.clock() + 3 * HOUR) });
    for (let i = 0; i < 3; i++) expectAccessDenied(await call(app, '/sites', { key: UNKNOWN_KEY }));
    expectError(await call(app, '/sites', { key: fx.keys.closed }), 403);
    expectError(await call(app, '/sites', { key: fx.keys.closed }), 429, 'rateLimited');
    expectError(await call(app, '/members', { key: fx.keys.demo.none }), 404, 'notFound');
    expectError(await call(app, '/members', { key: fx.keys.demo.none }), 429, 'rateLimited');
    const key = fx.keys.demo.only['read.members'];
    expectInvalidParameters(await call(app, '/members', { key, query: { status: 'x' } }), 'status');
    expectError(await call(app, '/members', { key, query: { status: 'x' } }), 429, 'rateLimited');
  });
});
