/**
 * A request whose method is named like an Object.prototype property is answered as any method
 * no route takes: hono looked the method up on a plain object and threw (a 500), which the Admin
 * API's fuzzing found with `toString` on /admin/v1/.
 */
import { expect, test } from 'vitest';
import { createMockApp } from '../../mock-server/app';

const { app } = await createMockApp();

test.each(['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__', 'isPrototypeOf'])('%s: never a 5xx, always JSON; without a key the Admin API says 401', async (method) => {
  for (const path of ['/admin/v1/', '/admin/v1/members', '/member/v1/sites/demo/me', '/member/v1/sites/demo/memberships', '/nowhere', '/']) {
    const res = await app.request(`http://svc.test${path}`, { method });
    expect(res.status, `${method} ${path}`).toBeLessThan(500);
    expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    if (path.startsWith('/admin/v1/')) expect(res.status, `${method} ${path}`).toBe(401);
  }
});
