/**
 * examples/events.html, against the demo service and with no service (mock mode): the log shows
 * Service.ready then Service.member.logout; logging in through the page's own link adds
 * Service.member.info with Ada's details and flips the flag's line; Log out adds
 * Service.member.logout. No console error anywhere.
 */
import { expect } from 'vitest';
import { browserTest } from '../support/suite';
import { ADA, EXAMPLE_MODES, expectNoErrors, useExamplesSuite } from '../support/examples';

const suite = useExamplesSuite();

for (const mode of EXAMPLE_MODES) {
  browserTest(`events.html (${mode}): every event is logged with its detail, and the flag follows`, async () => {
    const context = await suite.newContext();
    const page = await suite.open(context, mode, 'events.html');
    const logged = () => page.page.locator('#log > li > strong').allTextContents();
    await expect.poll(logged).toEqual(['Service.member.logout', 'Service.ready']);
    await expect.poll(() => page.page.locator('#ready-flag').textContent()).toBe('true');
    expect(await page.page.locator('#logged-in').textContent()).toBe('no');

    // The page's own "Log in" link opens the dialog without a page load.
    await page.page.locator('#login-link').click();
    await page.page.getByRole('dialog', { name: 'Log in' }).waitFor();
    await page.page.getByLabel('E-mail').fill(ADA.email);
    await page.page.getByLabel('Password').fill(ADA.password);
    await page.page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect.poll(logged).toEqual(['Service.member.info', 'Service.member.logout', 'Service.ready']);
    expect(await page.page.locator('#log > li pre').first().textContent()).toContain('"email": "ada@demo.localhost"');
    expect(await page.page.locator('#logged-in').textContent()).toBe('yes, as ada@demo.localhost');
    expect(await page.page.locator('[data-svc-member-info="name"]').textContent()).toBe('Ada Lovelace');

    await page.page.locator('#logout').click();
    await expect.poll(logged).toEqual(['Service.member.logout', 'Service.member.info', 'Service.member.logout', 'Service.ready']);
    expect(await page.page.locator('#logged-in').textContent()).toBe('no');
    expectNoErrors(page);
  });
}
