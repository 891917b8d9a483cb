/**
 * examples/metadata.html, against the demo service and with no service (mock mode): logged out
 * the notes app says to log in and Save shows notLoggedIn; Ada's stored metadata shows once she
 * logs in; notes are added (merged next to the other keys), deleted (null), refused when too
 * large (metadataTooLarge, nothing changes) and cleared. Against the service they survive a
 * reload; in mock mode a reload starts again from the fixtures, as the page says.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { browserTest } from '../support/suite';
import { EXAMPLE_MODES, expectNoErrors, logInThroughLink, useExamplesSuite, type ExamplePage } from '../support/examples';

const suite = useExamplesSuite();

type Notes = Record<string, { text: string; at: string }>;

/** The page's "Stored JSON", parsed (or its text when it is not JSON, e.g. logged out). */
async function stored(page: Page): Promise<unknown> {
  const text = (await page.locator('#stored').textContent()) ?? '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const noteTexts = (page: Page) => page.locator('#notes .metadata-text').allTextContents();
const storedNoteTexts = async (page: Page) =>
  Object.values(((await stored(page)) as { notes?: Notes }).notes ?? {}).map((note) => note.text).sort();

/**
 * Chromium logs every HTTP error answer as "Failed to load resource: … status of <n>", a
 * console error no page script can prevent. Where the page asks for one on purpose (the 413 of
 * a too-large note), the test takes those lines, and only those, out of the page's log, and
 * answers how many there were; every other console error still fails expectNoErrors.
 */
function takeHttpErrorLogs(page: ExamplePage, status: number): number {
  const expected = `console.error: Failed to load resource: the server responded with a status of ${status} `;
  let taken = 0;
  for (let i = page.log.length - 1; i >= 0; i--) {
    if (page.log[i]!.startsWith(expected)) {
      page.log.splice(i, 1);
      taken++;
    }
  }
  return taken;
}

const logInAsAda = logInThroughLink;

for (const mode of EXAMPLE_MODES) {
  browserTest(`metadata.html (${mode}): notes kept in Ada's metadata, merged, deleted with null, refused when too large, cleared`, async () => {
    const context = await suite.newContext();
    const page = await suite.open(context, mode, 'metadata.html');
    const p = page.page;

    // Logged out: the app says to log in, and Save shows the rejection's code.
    await expect.poll(() => p.locator('#who').textContent()).toBe('Nobody is logged in: log in to see and keep your notes.');
    expect(await p.locator('#stored').textContent()).toBe('(nobody is logged in)');
    await p.locator('#note-text').fill('Before logging in');
    await p.locator('#save').click();
    await expect.poll(() => p.locator('#error').textContent()).toContain('notLoggedIn: No member is logged in.');
    expect(await p.locator('#error').textContent()).toContain('Nobody is logged in: log in first.');

    // Ada's stored metadata: the fixture's theme in mock mode, nothing yet on a fresh service.
    await logInAsAda(p);
    const initial = mode === 'mock' ? { theme: 'dark' } : {};
    await expect.poll(() => stored(p)).toEqual(initial);
    expect(await p.locator('#who').textContent()).toBe('The notes of ada@demo.localhost, kept in their metadata.');
    expect(await p.locator('#theme').inputValue()).toBe(mode === 'mock' ? 'dark' : '');
    expect(await p.locator('#size').textContent()).toBe(`${JSON.stringify(initial).length} bytes of 16 KiB`);

    // Two notes: each update merges into what is there, so both stay, and so does the theme.
    await p.locator('#note-text').fill('Buy milk');
    await p.locator('#save').click();
    await expect.poll(() => noteTexts(p)).toEqual(['Buy milk']);
    expect(await p.locator('#note-text').inputValue()).toBe('');
    expect(await p.locator('#error').isVisible()).toBe(false);
    await p.locator('#note-text').fill('Call Charles <b>Babbage</b>');
    await p.locator('#save').click();
    await expect.poll(() => noteTexts(p)).toEqual(['Buy milk', 'Call Charles <b>Babbage</b>']); // as text, never markup
    expect(await storedNoteTexts(p)).toEqual(['Buy milk', 'Call Charles <b>Babbage</b>']);
    if (mode === 'mock') expect(((await stored(p)) as { theme: string }).theme).toBe('dark');
    expect(await p.locator('#status').textContent()).toBe('Saved.');

    // Delete one: the update is { notes: { <id>: null } }.
    await p.getByRole('button', { name: 'Delete note: Buy milk' }).click();
    await expect.poll(() => noteTexts(p)).toEqual(['Call Charles <b>Babbage</b>']);
    expect(await storedNoteTexts(p)).toEqual(['Call Charles <b>Babbage</b>']);
    expect(await p.locator('#status').textContent()).toBe('Deleted.');

    // A preference next to the notes: only `theme` is sent, the notes stay.
    await p.locator('#theme').selectOption('light');
    await expect.poll(async () => ((await stored(p)) as { theme?: string }).theme).toBe('light');
    expect(await storedNoteTexts(p)).toEqual(['Call Charles <b>Babbage</b>']);

    // Too large: the service refuses, the page says so, and nothing changed (read again to be sure).
    const before = await stored(p);
    await p.locator('#note-text').fill('x'.repeat(20_000));
    await p.locator('#save').click();
    await expect.poll(() => p.locator('#error').textContent()).toContain('metadataTooLarge: ');
    expect(await p.locator('#error').textContent()).toContain('Metadata is limited to 16 KiB of JSON; nothing was changed.');
    await p.locator('#note-text').fill('');
    await p.locator('#reload').click();
    await expect.poll(() => p.locator('#status').textContent()).toBe('Read from the service.');
    expect(await p.locator('#error').isVisible()).toBe(false);
    expect(await stored(p)).toEqual(before);
    // The page's own button tries a 20 KB note: the same answer.
    await p.locator('#huge').click();
    await expect.poll(() => p.locator('#error').isVisible()).toBe(true);
    expect(await p.locator('#error').textContent()).toContain('metadataTooLarge: ');
    await p.locator('#reload').click();
    await expect.poll(() => p.locator('#status').textContent()).toBe('Read from the service.');
    expect(await stored(p)).toEqual(before);
    expect(await noteTexts(p)).toEqual(['Call Charles <b>Babbage</b>']);
    expect(takeHttpErrorLogs(page, 413)).toBe(2); // the two refused notes, and nothing else

    // An array is not metadata: the widget refuses it before sending.
    await p.locator('#bad').click();
    await expect.poll(() => p.locator('#bad-result').textContent()).toContain('invalidMetadata: ');

    if (mode === 'service') {
      // Stored on the service: after a reload (Ada stays logged in) the notes are still there.
      await p.reload();
      await page.waitForEvent('Service.ready');
      await expect.poll(() => noteTexts(p)).toEqual(['Call Charles <b>Babbage</b>']);
      expect(await stored(p)).toEqual(before);
    }

    // Clear: {} again, no notes.
    await p.locator('#clear').click();
    await expect.poll(() => stored(p)).toEqual({});
    expect(await noteTexts(p)).toEqual([]);
    expect(await p.locator('#no-notes').isVisible()).toBe(true);
    expect(await p.locator('#status').textContent()).toBe('Cleared.');

    if (mode === 'mock') {
      // With no service the data lives in the page: a reload starts from the fixtures, logged out.
      await p.reload();
      await page.waitForEvent('Service.ready');
      await expect.poll(() => p.locator('#who').textContent()).toBe('Nobody is logged in: log in to see and keep your notes.');
      // The mock's boot forgets the login of the page before (its session is gone with the data):
      // no cached member is shown, nothing is refused, the page shows no error.
      expect(takeHttpErrorLogs(page, 401)).toBe(0);
      expect(await p.locator('#error').isVisible()).toBe(false);
      await logInAsAda(p);
      await expect.poll(() => stored(p)).toEqual({ theme: 'dark' });
    }
    expectNoErrors(page);
  });
}
