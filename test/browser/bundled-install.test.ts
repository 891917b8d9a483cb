/**
 * The widget through a bundler (issue 30): a site's script that imports dist/widgets.mjs and calls
 * `start({ subdomain, apiOrigin })`, bundled by esbuild as a site's build would, served from the
 * site's own origin. No script element names the service; the configuration does, and the screens
 * come from there too.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, expect } from 'vitest';
import { distDir } from '../../scripts/lib/paths';
import { createMember } from './support/members';
import { browserTest, HOST_A, useBrowserSuite } from './support/suite';

const suite = useBrowserSuite();
let bundle: string;

beforeAll(async () => {
  const entry = `import { start } from ${JSON.stringify(join(distDir, 'widgets.mjs'))};
start({ subdomain: 'shop', apiOrigin: ${JSON.stringify(suite.service.url)} });`;
  const result = await build({ stdin: { contents: entry, resolveDir: distDir, loader: 'js' }, bundle: true, format: 'iife', minify: true, write: false, logLevel: 'silent' });
  bundle = result.outputFiles[0]!.text;
});

browserTest('a page built with esbuild starts the widget with start(): ready, the screens from the service, a member logs in, the gate opens', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A), { firstName: 'Grace', lastName: 'Hopper' });
  const context = await suite.newContext();
  const modalFiles: string[] = [];
  context.on('request', (request) => request.url().includes('/scripts/widgets-modal') && modalFiles.push(new URL(request.url()).origin));
  await context.route('**/bundle.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: bundle }));
  const errors: string[] = [];
  const page = await suite.open(context, HOST_A, 'bundled.html');
  page.page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  // No widgets.js on the page: the bundle is the widget.
  expect(await page.page.evaluate(() => document.querySelectorAll('script[src*="widgets"]').length)).toBe(0);
  await page.page.evaluate(() => window.Service.open('/member/sign_in'));
  const dialog = page.page.getByRole('dialog', { name: 'Log in' });
  await dialog.waitFor({ state: 'visible', timeout: 5_000 });
  expect(new Set(modalFiles)).toEqual(new Set([suite.service.url]));
  await dialog.getByLabel('E-mail').fill(member.email);
  await dialog.getByLabel('Password', { exact: true }).fill(member.password);
  await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForEvent('Service.member.info');
  await expect.poll(() => page.page.locator('[data-svc-show]').isVisible(), { timeout: 5_000 }).toBe(true);
  expect(errors).toEqual([]);
});
