/**
 * The site file's `mail:` block (issue 15): the sender's name, the reply-to address, whether
 * members must confirm their address, and which notices go. Read (and refused, with FILE:LINE,
 * like every other problem), applied to the store on every store, exported back as written,
 * cleared when it leaves the file, named by the dry run, and in the committed JSON Schema.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../../scripts/lib/paths';
import { applySiteFile } from '../../src/service/site-file/apply';
import { formatSiteFile, siteFileOf } from '../../src/service/site-file/export';
import { describeProblem, readSiteFile, SiteFileError, type SiteFileProblem } from '../../src/service/site-file/read';
import { MAIL_NOTICES, type SiteMailSettings } from '../../src/service/store/records';
import { createMemoryStore } from '../../src/service/store/memory';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';

const NOW = Date.UTC(2026, 2, 2, 12);
const clock = () => NOW;

const SITE = 'site:\n  subdomain: acme\n  name: Acme\n';
const PLANS = 'plans:\n  - { key: free, name: Free, type: free }\n';
const MAIL_BLOCK = [
  '  mail:',
  '    fromName: The Acme Team',
  '    replyTo: help@acme.example',
  '    requireConfirmedEmail: true',
  '    notices:',
  '      welcome: false',
  '',
].join('\n');
const WITH_MAIL = `${SITE}${MAIL_BLOCK}${PLANS}`;
const WITHOUT_MAIL = `${SITE}${PLANS}`;
const MAIL: SiteMailSettings = { fromName: 'The Acme Team', replyTo: 'help@acme.example', requireConfirmedEmail: true, notices: { welcome: false } };

/** The problems reading `text` reports; fails the test when it reads without any. */
function problemsOf(text: string, source = 'acme.yaml'): { problems: SiteFileProblem[]; message: string } {
  try {
    readSiteFile(text, 'yaml', source);
  } catch (error) {
    expect(error).toBeInstanceOf(SiteFileError);
    const e = error as SiteFileError;
    return { problems: e.problems, message: e.message };
  }
  throw new Error('the file was read without a problem');
}

describe('reading the mail block', () => {
  test('it reads as written, every key kept', () => {
    expect(readSiteFile(WITH_MAIL, 'yaml', 'acme.yaml').file.site.mail).toStrictEqual(MAIL);
    expect(readSiteFile(WITHOUT_MAIL, 'yaml', 'acme.yaml').file.site).not.toHaveProperty('mail');
    const every = `${SITE}  mail:\n    notices: { welcome: true, receipt: false, paymentFailed: false, endingSoon: true }\n`;
    expect(readSiteFile(every, 'yaml', 'acme.yaml').file.site.mail).toStrictEqual({
      notices: { welcome: true, receipt: false, paymentFailed: false, endingSoon: true },
    });
  });

  const refusals: [string, string, { path: string; line: number; message: RegExp }][] = [
    [
      'a reply-to that is not an e-mail address',
      `${SITE}  mail:\n    fromName: Acme\n    replyTo: not-an-email\n`,
      { path: 'site.mail.replyTo', line: 6, message: /e-mail address/ },
    ],
    [
      'an unknown key in the mail block',
      `${SITE}  mail:\n    fromName: Acme\n    colour: red\n`,
      { path: 'site.mail.colour', line: 6, message: /unknown key "colour"/ },
    ],
    [
      'a notice switched with text, not true or false',
      `${SITE}  mail:\n    notices:\n      receipt: false\n      welcome: "yes"\n`,
      { path: 'site.mail.notices.welcome', line: 7, message: /boolean/ },
    ],
    [
      'a notice the service does not send',
      `${SITE}  mail:\n    notices:\n      newsletter: true\n`,
      { path: 'site.mail.notices.newsletter', line: 6, message: /unknown key "newsletter"/ },
    ],
    [
      'requireConfirmedEmail as text',
      `${SITE}  mail:\n    requireConfirmedEmail: "true"\n`,
      { path: 'site.mail.requireConfirmedEmail', line: 5, message: /boolean/ },
    ],
  ];
  test.each(refusals)('refused: %s, with its path, its line and FILE:LINE in the message', (_label, text, expected) => {
    const { problems, message } = problemsOf(text);
    expect(problems).toEqual([{ path: expected.path, line: expected.line, message: expect.stringMatching(expected.message) }]);
    expect(message).toContain(`acme.yaml:${expected.line}: ${expected.path}: `);
    expect(message).toContain(describeProblem('acme.yaml', problems[0]!));
  });

  test('every problem of a mail block at once, in file order', () => {
    const text = `${SITE}  mail:\n    replyTo: not-an-email\n    colour: red\n    notices:\n      welcome: "yes"\n`;
    const { problems } = problemsOf(text);
    expect(problems.map((p) => [p.line, p.path])).toEqual([
      [5, 'site.mail.replyTo'],
      [6, 'site.mail.colour'],
      [8, 'site.mail.notices.welcome'],
    ]);
  });
});

describe.each([
  ['memory', () => createMemoryStore()],
  ['sqlite', () => openSqliteStore(':memory:')],
] as const)('%s store', (_name, open: () => Store) => {
  const apply = (store: Store, text: string, options?: { dryRun?: boolean }) =>
    applySiteFile(store, clock, readSiteFile(text, 'yaml', 'acme.yaml').file, options);

  test('a file with a mail block applies: the site holds the settings as written', async () => {
    const store = open();
    const outcome = await apply(store, WITH_MAIL);
    expect(outcome).toMatchObject({ created: true, written: true });
    expect((await store.getSite(outcome.siteId!))!.mail).toStrictEqual(MAIL);
    // The same file again changes nothing.
    expect(await apply(store, WITH_MAIL)).toMatchObject({ lines: [], written: false });
    await store.close();
  });

  test('export writes the block back as it was applied (YAML and JSON); reading and applying the export changes nothing', async () => {
    const store = open();
    const { siteId } = await apply(store, WITH_MAIL);
    const before = (await store.getSiteDefinition(siteId!))!;
    expect(siteFileOf(before).site.mail).toStrictEqual(MAIL);
    for (const format of ['yaml', 'json'] as const) {
      const text = formatSiteFile(siteFileOf(before), format, 'https://svc.example/schemas/site.json');
      const written = (format === 'json' ? JSON.parse(text) : parse(text)) as { site: { mail?: unknown } };
      expect(written.site.mail, format).toStrictEqual(MAIL);
      const read = readSiteFile(text, format, `acme.${format}`).file;
      expect(read.site.mail, format).toStrictEqual(MAIL);
      expect((await applySiteFile(store, clock, read)).lines, format).toEqual([]);
      // Into a new store, the exported file makes the same settings.
      const other = open();
      const { siteId: otherId } = await applySiteFile(other, clock, read);
      expect((await other.getSite(otherId!))!.mail, format).toStrictEqual(MAIL);
      await other.close();
    }
    expect(await store.getSiteDefinition(siteId!)).toStrictEqual(before);
    await store.close();
  });

  test('a site without the block exports none', async () => {
    const store = open();
    const { siteId } = await apply(store, WITHOUT_MAIL);
    expect((await store.getSite(siteId!))!).not.toHaveProperty('mail');
    const exported = siteFileOf((await store.getSiteDefinition(siteId!))!);
    expect(exported.site).not.toHaveProperty('mail');
    expect(formatSiteFile(exported, 'yaml', 'x')).not.toMatch(/^\s*mail:/m);
    await store.close();
  });

  test('the block leaving the file clears the settings: one line, site.mail undefined, the export without it', async () => {
    const store = open();
    const { siteId } = await apply(store, WITH_MAIL);
    const outcome = await apply(store, WITHOUT_MAIL);
    expect(outcome.written).toBe(true);
    expect(outcome.lines).toEqual([{ op: '~', text: expect.stringMatching(/^site acme: mail \{"fromName":"The Acme Team",.* → \(none\)$/) }]);
    const site = (await store.getSite(siteId!))!;
    expect(site.mail).toBeUndefined();
    expect(site).not.toHaveProperty('mail');
    expect(siteFileOf((await store.getSiteDefinition(siteId!))!).site).not.toHaveProperty('mail');
    expect((await apply(store, WITHOUT_MAIL)).lines).toEqual([]);
    await store.close();
  });

  test('an empty mail block is no settings at all', async () => {
    const store = open();
    const { siteId } = await apply(store, WITHOUT_MAIL);
    expect((await apply(store, `${SITE}  mail: {}\n${PLANS}`)).lines).toEqual([]);
    expect((await store.getSite(siteId!))!).not.toHaveProperty('mail');
    await store.close();
  });

  test('the dry run names the mail change and writes nothing; the real apply makes that change', async () => {
    const store = open();
    const { siteId } = await apply(store, WITHOUT_MAIL);
    const revision = (await store.getSiteDefinition(siteId!))!.revision;

    const dry = await apply(store, WITH_MAIL, { dryRun: true });
    expect(dry.written).toBe(false);
    expect(dry.lines).toEqual([{ op: '~', text: expect.stringMatching(/^site acme: mail \(none\) → \{"fromName":"The Acme Team",/) }]);
    expect((await store.getSite(siteId!))!).not.toHaveProperty('mail');
    expect((await store.getSiteDefinition(siteId!))!.revision).toBe(revision);
    expect((await apply(store, WITH_MAIL)).lines).toEqual(dry.lines);
    expect((await store.getSite(siteId!))!.mail).toStrictEqual(MAIL);

    // A change inside the block is named key by key.
    const edited = WITH_MAIL.replace('fromName: The Acme Team', 'fromName: Acme Support').replace('      welcome: false\n', '      welcome: false\n      receipt: false\n');
    const dryEdit = await apply(store, edited, { dryRun: true });
    expect(dryEdit.lines).toEqual([{ op: '~', text: 'site acme: mail.fromName "The Acme Team" → "Acme Support", mail.notices.receipt (none) → false' }]);
    expect((await store.getSite(siteId!))!.mail).toStrictEqual(MAIL);
    await apply(store, edited);
    expect((await store.getSite(siteId!))!.mail).toStrictEqual({ ...MAIL, fromName: 'Acme Support', notices: { welcome: false, receipt: false } });
    await store.close();
  });
});

describe('the committed JSON Schema (schemas/site.json)', () => {
  const committed = () => JSON.parse(readFileSync(join(repoRoot, 'schemas', 'site.json'), 'utf8'));
  const mailSchema = () => committed().properties.site.properties.mail;

  test('it describes the mail block: its four keys, closed, and one switch per notice', () => {
    const mail = mailSchema();
    expect(mail).toMatchObject({ type: 'object', additionalProperties: false });
    expect(Object.keys(mail.properties).sort()).toEqual(['fromName', 'notices', 'replyTo', 'requireConfirmedEmail']);
    expect(mail.properties.requireConfirmedEmail.type).toBe('boolean');
    expect(mail.properties.notices).toMatchObject({ type: 'object', additionalProperties: false });
    expect(Object.keys(mail.properties.notices.properties).sort()).toEqual([...MAIL_NOTICES].sort());
    for (const notice of MAIL_NOTICES) expect(mail.properties.notices.properties[notice].type).toBe('boolean');
  });

  test('an editor checking against it accepts the block and flags what the reader refuses', () => {
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(committed());
    const file = (mail: unknown) => ({ site: { subdomain: 'acme', name: 'Acme', mail } });
    expect(validate(file(MAIL)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(file({ replyTo: 'not-an-email' })), 'replyTo').toBe(false);
    expect(validate(file({ colour: 'red' })), 'colour').toBe(false);
    expect(validate(file({ notices: { welcome: 'yes' } })), 'welcome: "yes"').toBe(false);
    expect(validate(file({ notices: { newsletter: true } })), 'newsletter').toBe(false);
  });
});
