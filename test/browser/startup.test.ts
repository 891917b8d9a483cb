/** (a) A site's page loads widgets.js from the service's origin and starts with nobody logged in. */
import { expect } from 'vitest';
import { browserTest, HOST_A, useBrowserSuite } from './support/suite';

const suite = useBrowserSuite();

browserTest('the widget loads from the service origin and sends Service.ready, then Service.member.logout', async () => {
  const context = await suite.newContext();
  const page = await context.newPage();
  const script = page.waitForResponse((response) => response.url().endsWith('/scripts/widgets.js'));
  await page.goto(suite.pages.url(HOST_A));
  const response = await script;
  expect(new URL(response.url()).origin).toBe(suite.service.url);
  expect(new URL(page.url()).origin).not.toBe(suite.service.url);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('text/javascript; charset=utf-8');

  await page.waitForFunction(() => window.__events.some((e) => e.type === 'Service.member.logout'));
  const events = await page.evaluate(() => window.__events);
  expect(events.map((e) => e.type)).toEqual(['Service.ready', 'Service.member.logout']);
  expect(events[0]!.detail).toEqual({});
  expect(events[1]!.detail).toBeNull();
  expect(await page.evaluate(() => [window.Service.ready, window.Service.getMemberInfo()])).toEqual([true, { isLoggedIn: false }]);
});

browserTest('a member function before anyone logs in rejects with notLoggedIn', async () => {
  const context = await suite.newContext();
  const page = await suite.open(context, HOST_A);
  const code = await page.page.evaluate(() => window.Service.getMemberMetadata().then(() => 'resolved', (e: { code: string }) => e.code));
  expect(code).toBe('notLoggedIn');
});
