/** (e) Member metadata from the browser: merge, read back on another subdomain, clear (spec 2.8). */
import { expect } from 'vitest';
import { createMember } from './support/members';
import { browserTest, HOST_A, HOST_B, useBrowserSuite } from './support/suite';

const suite = useBrowserSuite();

browserTest('metadata set on one subdomain is merged, read on another, and cleared', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  const a = await suite.open(context, HOST_A);
  await a.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);

  expect(await a.page.evaluate(() => window.Service.getMemberMetadata())).toEqual({});
  const first = await a.page.evaluate(() =>
    window.Service.updateMemberMetadata({ theme: 'dark', cart: { items: ['hat'], total: 12.5 }, seen: true, note: 'ünïcode ✓' }),
  );
  expect(first).toEqual({ theme: 'dark', cart: { items: ['hat'], total: 12.5 }, seen: true, note: 'ünïcode ✓' });
  // Objects merge at every level, arrays replace, null removes.
  const second = await a.page.evaluate(() => window.Service.updateMemberMetadata({ cart: { items: ['scarf'], coupon: 'X1' }, theme: null }));
  expect(second).toEqual({ cart: { items: ['scarf'], total: 12.5, coupon: 'X1' }, seen: true, note: 'ünïcode ✓' });

  const b = await suite.open(context, HOST_B);
  expect(await b.page.evaluate(() => window.Service.getMemberMetadata())).toEqual(second);

  const refused = await b.page.evaluate(() =>
    window.Service.updateMemberMetadata(null as never).then(() => 'resolved', (e: { code: string }) => e.code),
  );
  expect(refused).toBe('invalidMetadata');
  expect(await b.page.evaluate(() => window.Service.clearMemberMetadata())).toEqual({});
  expect(await a.page.evaluate(() => window.Service.getMemberMetadata())).toEqual({});
});

browserTest('two tabs updating at once lose nothing', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  const a = await suite.open(context, HOST_A);
  await a.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  const b = await suite.open(context, HOST_B);
  expect(await b.page.evaluate(() => window.Service.getMemberInfo().isLoggedIn)).toBe(true);

  const keys = Array.from({ length: 10 }, (_, i) => i);
  await Promise.all([
    a.page.evaluate((keys) => Promise.all(keys.map((k) => window.Service.updateMemberMetadata({ a: { [k]: k } }))), keys),
    b.page.evaluate((keys) => Promise.all(keys.map((k) => window.Service.updateMemberMetadata({ b: { [k]: k } }))), keys),
  ]);
  const all = Object.fromEntries(keys.map((k) => [String(k), k]));
  expect(await a.page.evaluate(() => window.Service.getMemberMetadata())).toEqual({ a: all, b: all });
});
