/**
 * examples/mail.html, against the demo service (`svc serve --demo`, which serves the demo's
 * mailbox) and with no service (mock mode, whose service app serves it too): the page shows
 * "The demo's mailbox"; "Forgot password?" for Ada in the dialog puts a passwordReset mail in the
 * mailbox list with its link, which leads back to this page; clicking that link opens the reset
 * screen there, with no page load (the widget takes a click on a same-page `?svcopen=` link), so
 * the token is still good in mock mode too, whose data lives in the page: the new password is
 * saved and Ada is logged in (her published password is chosen again, so the demo stays as
 * documented). No console error anywhere.
 */
import { expect } from 'vitest';
import type { MemberInfo } from '../../../src/contract/member';
import { browserTest } from '../support/suite';
import { ADA, EXAMPLE_MODES, expectNoErrors, useExamplesSuite } from '../support/examples';

const suite = useExamplesSuite();

for (const mode of EXAMPLE_MODES) {
  browserTest(`mail.html (${mode}): "Forgot password?" for Ada puts a passwordReset mail with its link in the demo's mailbox; the link opens the reset screen on this page`, async () => {
    const context = await suite.newContext();
    // Every answer to the page's mailbox requests that was not a 200, from the first one on.
    const mailboxFailures: string[] = [];
    context.on('response', (response) => {
      if (response.url().endsWith('/mailbox') && response.status() !== 200) mailboxFailures.push(`${response.status()} ${response.url()}`);
    });
    const page = await suite.open(context, mode, 'mail.html');
    const p = page.page;
    const address = new URL(p.url());
    await p.getByRole('heading', { name: "The demo's mailbox", exact: true }).waitFor();
    // The mailbox answers (an empty one says so; one that cannot be had says it is not available).
    await expect
      .poll(() => p.locator('#mailbox-state').textContent(), { timeout: 10_000 })
      .toMatch(/^(No mail yet: try one of the flows\.|\d+ newest mails)$/);

    // The page's own "Log in" link, then "Forgot password?" in the dialog.
    await p.locator('header').getByRole('link', { name: 'Log in', exact: true }).click();
    const login = p.getByRole('dialog', { name: 'Log in', exact: true });
    await login.waitFor();
    await login.getByRole('button', { name: 'Forgot password?', exact: true }).click();
    const forgot = p.getByRole('dialog', { name: 'Forgot password?', exact: true });
    await forgot.waitFor();
    await forgot.getByLabel('E-mail').fill(ADA.email);
    await forgot.getByRole('button', { name: 'E-mail me a link', exact: true }).click();
    const inbox = p.getByRole('dialog', { name: 'Check your inbox', exact: true });
    await inbox.waitFor();
    expect(await inbox.getByRole('status').textContent()).toContain(ADA.email);
    await inbox.getByRole('button', { name: 'Close', exact: true }).click();
    await inbox.waitFor({ state: 'detached' });

    // The mailbox polls every 1.5 s: the mail shows up, to Ada, with the reset link.
    const mail = p.locator('li.mail[data-kind="passwordReset"]').filter({ hasText: ADA.email }).first();
    await mail.waitFor({ timeout: 10_000 });
    const link = mail.locator('a[href*="svcopen=/member/reset_password/"]');
    expect(await link.count()).toBe(1);
    const href = new URL((await link.getAttribute('href'))!);
    // Back to the page that asked: this one.
    expect(href.origin + href.pathname).toBe(address.origin + address.pathname);
    expect(href.searchParams.get('svcopen')).toMatch(/^\/member\/reset_password\/[\w-]{20,}$/);

    // A link to this very page with ?svcopen=: the widget opens its screen here, with no page load.
    let loads = 0;
    p.on('load', () => loads++);
    await link.click();
    const reset = p.getByRole('dialog', { name: 'Change password', exact: true });
    await reset.waitFor();
    expect(new URL(p.url()).pathname).toBe(address.pathname);
    expect(new URL(p.url()).searchParams.has('svcopen')).toBe(false);
    expect(loads).toBe(0);

    // The link works: a new password (Ada's published one again, so the demo stays as documented) logs her in.
    await reset.locator('input[name="newPassword"]').fill(ADA.password);
    await reset.getByRole('button', { name: 'Save', exact: true }).click();
    const info = await page.waitForEvent('Service.member.info');
    expect((info.detail as { memberInfo: MemberInfo }).memberInfo.email).toBe(ADA.email);
    const account = p.getByRole('dialog', { name: 'Your account', exact: true });
    await account.waitFor();
    expect(await account.textContent()).toContain('Your new password is saved.');
    await expect.poll(() => p.locator('header [data-svc-member-info="email"]').textContent()).toBe(ADA.email);
    // The mailbox never failed, not even before the page's service (the mock server, in mock mode) was up.
    expect(mailboxFailures, 'GET /member/v1/sites/demo/mailbox answered').toEqual([]);
    expectNoErrors(page);
  });
}
