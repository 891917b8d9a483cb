/**
 * The owner console under the Admin API's rate limit (SVC_ADMIN_RATE_LIMIT=3/9s: a burst of 3,
 * then one request every 3 s a key): a 429 is waited out for its Retry-After, the page says so
 * ("Rate limited: waiting 3 s"), and the read then completes with the numbers the API reports.
 * A long read can be stopped, and says how far it got. Each test signs in with a key of its own,
 * so each starts with a full allowance; sign-in (GET /sites, GET /key) spends two of it.
 */
import type { Member } from '../../src/contract/admin';
import { expect } from 'vitest';
import { useConsoleSuite } from './support/console';
import { browserTest } from './support/suite';

const suite = useConsoleSuite({ SVC_ADMIN_RATE_LIMIT: '3/9s' });

browserTest('a 429 is waited out as its Retry-After says, the wait shown on the page, then the read completes', async () => {
  const key = await suite.createKey(['read.members']);
  const context = await suite.newContext();
  const { page, problems } = await suite.signIn(context, key);
  const notice = page.getByText(/^Rate limited: waiting \d+ s, then reading on$/);
  await notice.waitFor({ timeout: 15_000 });
  const waited = Number(/waiting (\d+) s/.exec((await notice.textContent())!)![1]);
  expect(waited).toBeGreaterThanOrEqual(1);
  expect(waited).toBeLessThanOrEqual(3);

  // The test's own reads under a key of their own, with its own allowance.
  const members = await suite.adminAll<Member>('/members', await suite.createKey(['read.members']));
  await page.getByText(`Read ${members.length} members.`).waitFor({ timeout: 45_000 });
  expect(await page.locator('[data-figure="members-now"]').textContent()).toBe(new Intl.NumberFormat('en-US').format(members.filter((m) => m.status !== 'erased').length));
  expect(await notice.count()).toBe(0);
  expect(problems().filter((line) => !/status of 429/.test(line))).toEqual([]);
}, 90_000);

browserTest('Stop ends a long read between pages: the page says how far it got and that the numbers count those only', async () => {
  const key = await suite.createKey(['read.members']);
  const context = await suite.newContext();
  const { page } = await suite.signIn(context, key);
  const stop = page.getByRole('button', { name: 'Stop reading members' });
  await page.getByText(/^Reading members: read \d+$/).waitFor({ timeout: 20_000 });
  await stop.click();
  const stopped = page.getByText(/^Stopped after \d+ members: the numbers below count those only\.$/);
  await stopped.waitFor();
  const read = Number(/after (\d+)/.exec((await stopped.textContent())!)![1]);
  expect(read).toBeGreaterThan(0);
  expect(read).toBeLessThan(300);
  expect(await page.locator('[data-figure="members-now"]').textContent()).toBe(String(read));
  expect(await stop.count()).toBe(0);
}, 60_000);
