/**
 * examples/screens.html's Theme panel (issue 14), against the demo service and with no service
 * (mock mode): the accent picker and the radius slider reach a dialog that is open already,
 * through the page's <style id="svc-theme"> (read as computed styles in the shadow root, not as
 * class names); Reset takes the page's properties away and the dialog is the site's again; the
 * font and colour-scheme selects, picked before a screen opens; the CSS and site-file snippets
 * say the chosen values, and the site-file one is a theme `svc sites apply` accepts. No console error.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { readSiteFile } from '../../../src/service/site-file/read';
import { EXAMPLE_MODES, expectNoErrors, useExamplesSuite } from '../support/examples';
import { browserTest } from '../support/suite';

const suite = useExamplesSuite();

/** The open dialog's look, as the browser computed it inside the shadow root. */
const looks = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('[data-svc-modal]')!.shadowRoot!;
    const dialog = getComputedStyle(root.querySelector('dialog')!);
    const submit = getComputedStyle(root.querySelector('dialog button[type=submit]')!);
    return {
      button: submit.backgroundColor,
      radius: dialog.borderTopLeftRadius,
      background: dialog.backgroundColor,
      text: dialog.color,
      font: dialog.fontFamily,
    };
  });

/** The site-file snippet as a whole file (a name added where it says "the rest as they are"), read as `svc sites apply` reads it. */
function themeOfSnippet(snippet: string) {
  const text = snippet.replace(/^ {2}# .*$/m, '  subdomain: themed\n  name: Themed');
  return readSiteFile(text, 'yaml', 'theme-panel.yaml').file.site.theme;
}

for (const mode of EXAMPLE_MODES) {
  browserTest(`screens.html (${mode}): the Theme panel recolours and reshapes an open dialog, Reset gives the site's look back, the snippets say so`, async () => {
    const context = await suite.newContext();
    const page = await suite.open(context, mode, 'screens.html');
    const p = page.page;
    const css = p.locator('#theme-css');
    const yaml = p.locator('#theme-yaml');
    expect(await css.textContent()).toContain('Nothing set');
    expect(await p.locator('style#svc-theme').count()).toBe(1);

    // The site's look (the demo site has no theme: the widget's defaults).
    await p.locator('#login-link').click();
    const login = p.getByRole('dialog', { name: 'Log in' });
    await login.waitFor();
    const site = await looks(p);
    expect(site.button).not.toBe('rgb(185, 28, 28)');
    expect(site.radius).not.toBe('4px');

    // With the dialog open (the page behind it is inert to a person, not to fill()), the accent
    // and the radius change: the open dialog follows at once.
    await p.getByLabel('Accent').fill('#b91c1c');
    await expect.poll(async () => (await looks(p)).button).toBe('rgb(185, 28, 28)');
    await p.getByLabel('Corner radius').fill('4');
    await expect.poll(async () => (await looks(p)).radius).toBe('4px');
    expect(await p.locator('#theme-radius-value').textContent()).toBe('4 px');
    expect(await css.textContent()).toBe('[data-svc-modal] {\n  --svc-accent: #b91c1c;\n  --svc-radius: 4px;\n}');
    expect(await p.locator('style#svc-theme').textContent()).toBe(await css.textContent());
    expect(await yaml.textContent()).toContain('accent: "#b91c1c"');
    expect(themeOfSnippet((await yaml.textContent())!)).toEqual({ accent: '#b91c1c', radius: 4 });

    // Reset, with the dialog closed as a person would: the page's properties go, the site's look is back.
    await login.getByRole('button', { name: 'Close', exact: true }).click();
    await login.waitFor({ state: 'detached' });
    await p.getByRole('button', { name: 'Reset', exact: true }).click();
    expect(await css.textContent()).toContain('Nothing set');
    expect(await p.locator('style#svc-theme').textContent()).not.toContain('--svc-');
    expect(await p.getByLabel('Accent').inputValue()).toBe('#1d4ed8');
    expect(await p.getByLabel('Corner radius').inputValue()).toBe('12');
    expect(themeOfSnippet((await yaml.textContent())!)).toBeUndefined();
    await p.getByRole('button', { name: 'Open a screen', exact: true }).click();
    await login.waitFor();
    expect(await looks(p)).toEqual(site);
    await login.getByRole('button', { name: 'Close', exact: true }).click();
    await login.waitFor({ state: 'detached' });

    expectNoErrors(page);
  });

  browserTest(`screens.html (${mode}): the Theme panel's font and colour scheme, picked before a screen opens; its site-file lines read as a theme`, async () => {
    const context = await suite.newContext();
    const page = await suite.open(context, mode, 'screens.html');
    const p = page.page;
    const yaml = p.locator('#theme-yaml');

    await p.getByLabel('Font').selectOption({ label: 'Georgia (serif)' });
    await p.getByLabel('Colour scheme').selectOption('dark');
    expect(await p.getByLabel('Text', { exact: true }).inputValue()).toBe('#f3f4f6');
    expect(await p.getByLabel('Background', { exact: true }).inputValue()).toBe('#1f2937');
    expect(await p.locator('#theme-css').textContent()).toBe(
      "[data-svc-modal] {\n  --svc-text: #f3f4f6;\n  --svc-background: #1f2937;\n  --svc-font-family: Georgia, 'Times New Roman', serif;\n}",
    );
    // In the site file, Dark is the widget's own dark palette.
    expect(themeOfSnippet((await yaml.textContent())!)).toEqual({ colorScheme: 'dark', fontFamily: "Georgia, 'Times New Roman', serif" });

    await p.getByRole('button', { name: 'Open a screen', exact: true }).click();
    const login = p.getByRole('dialog', { name: 'Log in' });
    await login.waitFor();
    expect(await looks(p)).toMatchObject({ background: 'rgb(31, 41, 55)', text: 'rgb(243, 244, 246)', font: "Georgia, \"Times New Roman\", serif" });
    await login.getByRole('button', { name: 'Close', exact: true }).click();
    await login.waitFor({ state: 'detached' });

    // A background picked by hand: the scheme is the visitor's own; the site file fixes it as light.
    await p.getByLabel('Background', { exact: true }).fill('#fef3c7');
    expect(await p.getByLabel('Colour scheme').inputValue()).toBe('custom');
    expect(themeOfSnippet((await yaml.textContent())!)).toEqual({
      text: '#f3f4f6',
      background: '#fef3c7',
      colorScheme: 'light',
      fontFamily: "Georgia, 'Times New Roman', serif",
    });
    // Back to following the system: no text or background written.
    await p.getByLabel('Colour scheme').selectOption('system');
    expect(await p.locator('#theme-css').textContent()).not.toContain('--svc-text');

    expectNoErrors(page);
  });
}
