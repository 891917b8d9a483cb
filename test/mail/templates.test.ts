/** The mail templates: every kind in English and German, escaped, one-line where it must be, with no remote resources. */
import { describe, expect, test } from 'vitest';
import { composeMail, type MailContent, type MailKind, type MailSite, type MailTemplate } from '../../src/service/mail-templates';

const SITE = 'The Weekly Ledger';
const en: MailSite = { name: SITE, locale: 'en' };
const de: MailSite = { name: SITE, locale: 'de' };
const LOCALES = ['en', 'de'] as const;

type TemplateOf<K extends MailKind> = Extract<MailTemplate, { kind: K }>;

/** One of each kind; the mapped type fails to compile when a kind is added without a sample. */
const SAMPLES: { [K in MailKind]: TemplateOf<K> } = {
  passwordReset: { kind: 'passwordReset', link: 'https://ledger.example/?svcopen=/member/reset&token=r3s3t&x=1', minutes: 30 },
  signInCode: { kind: 'signInCode', code: '482913', link: 'https://ledger.example/?svcopen=/member/sign_in&code=482913', minutes: 15 },
  welcome: { kind: 'welcome', firstName: 'Ada', code: '105776', link: 'https://ledger.example/?svcopen=/member/confirm&code=105776', minutes: 30 },
  confirmEmail: { kind: 'confirmEmail', code: '640021', link: 'https://ledger.example/?svcopen=/member/confirm&code=640021', minutes: 30 },
  accountExists: { kind: 'accountExists', code: '930517', link: 'https://ledger.example/?svcopen=/member/sign_in&token=ex1st', minutes: 20 },
  emailChange: {
    kind: 'emailChange',
    newEmail: 'ada.new@example.org',
    code: '777310',
    link: 'https://ledger.example/?svcopen=/member/email&code=777310',
    minutes: 30,
  },
  emailInUse: { kind: 'emailInUse' },
  emailChanged: { kind: 'emailChanged', newEmail: 'ada.new@example.org' },
  receipt: {
    kind: 'receipt',
    planName: 'Monthly Supporter',
    amount: '$14.40',
    date: 'May 1, 2025',
    description: 'Monthly Supporter, May 2025',
    link: 'https://ledger.example/account?svcopen=/member/invoices&from=mail',
  },
  paymentFailed: { kind: 'paymentFailed', planName: 'Yearly Patron', amount: '€120.00', link: 'https://ledger.example/?svcopen=/member/card&from=mail' },
  endingSoon: { kind: 'endingSoon', planName: 'Quarterly', endsOn: 'June 30, 2025', link: 'https://ledger.example/?svcopen=/member/plans&from=mail' },
};

const KINDS = Object.keys(SAMPLES) as MailKind[];
const CASES = LOCALES.flatMap((locale) => KINDS.map((kind) => [locale, kind] as const));
const WITH_LINK = KINDS.filter((kind) => 'link' in SAMPLES[kind]);
const WITH_CODE = KINDS.filter((kind) => 'code' in SAMPLES[kind]);

function compose(locale: string, kind: MailKind, overrides: Record<string, unknown> = {}, siteName = SITE): MailContent {
  return composeMail({ name: siteName, locale }, { ...SAMPLES[kind], ...overrides } as MailTemplate);
}

/** The string values of a template, but its kind. */
function valuesOf(template: MailTemplate): string[] {
  return Object.entries(template).flatMap(([key, value]) => (key !== 'kind' && typeof value === 'string' ? [value] : []));
}

/** What escapeHtml should make of a value; written out again so the test does not trust the code. */
function escaped(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

function hrefs(html: string): string[] {
  return [...html.matchAll(/\bhref\s*=\s*["']?([^"'\s>]*)/gi)].map((match) => match[1]!);
}

test('the subjects read as written', () => {
  expect(composeMail(en, SAMPLES.passwordReset).subject).toBe('Reset your password for The Weekly Ledger');
  expect(composeMail(de, SAMPLES.passwordReset).subject).toBe('Passwort für The Weekly Ledger zurücksetzen');
});

test('a password reset in plain text: greeting, what happened, the link on its own line, how long, if not you, the site', () => {
  expect(composeMail(en, SAMPLES.passwordReset).text).toBe(
    [
      'Hello,',
      '',
      'Someone asked to reset the password of your account on The Weekly Ledger.',
      '',
      'To choose a new password, follow this link:',
      'https://ledger.example/?svcopen=/member/reset&token=r3s3t&x=1',
      '',
      'The link works for 30 minutes, and only once.',
      '',
      "If this wasn't you, ignore this e-mail: your password stays as it is.",
      '',
      'The Weekly Ledger',
      '',
    ].join('\n'),
  );
});

describe.each(CASES)('%s %s', (locale, kind) => {
  const mail = compose(locale, kind);
  const lines = mail.text.split('\n');

  test('names the site in the subject, the text and the html', () => {
    expect(mail.subject).toContain(SITE);
    expect(mail.text).toContain(SITE);
    expect(mail.html).toContain(SITE);
  });

  test('shows every value it was given, in the text as is and in the html escaped', () => {
    for (const value of valuesOf(SAMPLES[kind])) {
      expect(mail.text).toContain(value);
      expect(mail.html).toContain(escaped(value));
    }
  });

  test('the html is one complete document in its language, inline styles only, with nothing remote', () => {
    expect(mail.html.startsWith(`<!doctype html>\n<html lang="${locale}">\n<meta charset="utf-8">`)).toBe(true);
    expect(mail.html.trimEnd().endsWith('</html>')).toBe(true);
    expect(mail.html).toContain('style="');
    for (const forbidden of ['<img', 'src=', 'url(', '@import', '<link', '<style', '<script', 'background-image']) {
      expect(mail.html.toLowerCase()).not.toContain(forbidden);
    }
  });

  test('the subject is one line and the text wraps at 78 characters, links aside', () => {
    expect(mail.subject).not.toMatch(/[\r\n]/);
    const link = 'link' in SAMPLES[kind] ? SAMPLES[kind].link : undefined;
    for (const line of lines) if (line !== link) expect(line.length, line).toBeLessThanOrEqual(78);
    expect(mail.text).not.toContain('\r');
  });

  if (locale === 'de') {
    test('German reads formally, and is not the English mail', () => {
      expect(mail.text).toMatch(/\b(Sie|Ihr\w*|Ihnen)\b/);
      expect(`${mail.subject}\n${mail.text}`).not.toMatch(/(^|[^\p{L}])(du|dich|dir|dein\w*|euch|euer\w*)(?![\p{L}])/iu);
      expect(mail.subject).not.toBe(compose('en', kind).subject);
    });
  }
});

describe.each(LOCALES.flatMap((locale) => WITH_LINK.map((kind) => [locale, kind] as const)))('%s %s with a link', (locale, kind) => {
  const template = SAMPLES[kind] as MailTemplate & { link: string };

  test('the link is a whole line of the text and the only href of the html', () => {
    const mail = compose(locale, kind);
    expect(mail.text.split('\n')).toContain(template.link);
    expect(hrefs(mail.html)).toEqual([escaped(template.link)]);
    // The address is also there as text, under the button, for clients that do not follow it.
    expect(mail.html.split(escaped(template.link)).length - 1).toBe(2);
  });

  test('an http link on a local test server is a link as well', () => {
    const link = 'http://localhost:8787/?svcopen=/member/reset&token=abc';
    expect(hrefs(compose(locale, kind, { link }).html)).toEqual([escaped(link)]);
  });

  test.each([
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    ' javascript:alert(1)',
    '\tjavascript:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/steal',
    'https:/evil.example',
    '/member/reset?token=abc',
    'ftp://files.example/x',
  ])('a link %j is text, never an href', (link) => {
    const mail = compose(locale, kind, { link });
    expect(hrefs(mail.html)).toEqual([]);
    expect(mail.html).not.toMatch(/<a\b/i);
    expect(mail.html).not.toContain('<script');
  });

  test('a link with quotes and brackets cannot leave its attribute', () => {
    const link = 'https://ledger.example/?q="><script>alert(1)</script>&x=\'y\'';
    const mail = compose(locale, kind, { link });
    expect(mail.html).not.toContain('<script');
    expect(hrefs(mail.html)).toEqual(['https://ledger.example/?q=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;x=&#39;y&#39;']);
  });
});

describe.each(LOCALES.flatMap((locale) => WITH_CODE.map((kind) => [locale, kind] as const)))('%s %s with a code', (locale, kind) => {
  test('the code is a line of its own in the text and a big monospace block in the html', () => {
    const { code } = SAMPLES[kind] as MailTemplate & { code: string };
    const mail = compose(locale, kind);
    expect(mail.text.split('\n')).toContain(code);
    const block = new RegExp(`<(\\w+) style="[^"]*font-family:[^"]*monospace[^"]*">${code}</\\1>`).exec(mail.html);
    expect(block, mail.html).not.toBeNull();
    expect(Number(/font-size:(\d+)px/.exec(block![0])?.[1])).toBeGreaterThanOrEqual(24);
  });
});

test.each(['fr', '', 'EN-us', 'constructor', '__proto__', 'toString', 'hasOwnProperty'])('the locale %j reads English', (locale) => {
  for (const kind of KINDS) expect(compose(locale, kind)).toEqual(compose('en', kind));
  expect(compose(locale, 'welcome').html).toContain('<html lang="en">');
});

describe('hostile values', () => {
  const HOSTILE = `Tom & "Jerry's" <script>alert(1)</script>`;
  const HOSTILE_HTML = 'Tom &amp; &quot;Jerry&#39;s&quot; &lt;script&gt;alert(1)&lt;/script&gt;';

  test.each(CASES)('%s %s: a site name with markup is escaped wherever it appears in the html', (locale, kind) => {
    const { html, text, subject } = compose(locale, kind, {}, HOSTILE);
    expect(html).toContain(HOSTILE_HTML);
    expect(html).not.toContain('<script');
    // Every "Jerry" is inside the escaped form: none slipped through raw, in no place.
    expect(html.split(HOSTILE_HTML).join('')).not.toContain('Jerry');
    // Plain text and the subject are not markup: the name reads as the owner wrote it.
    expect(text).toContain(HOSTILE);
    expect(subject).toContain(HOSTILE);
  });

  test.each(CASES)('%s %s: every member-given value with markup is escaped in the html', (locale, kind) => {
    const overrides = Object.fromEntries(
      Object.keys(SAMPLES[kind])
        .filter((key) => key !== 'kind' && key !== 'minutes' && key !== 'link')
        .map((key) => [key, HOSTILE]),
    );
    const { html } = compose(locale, kind, overrides);
    expect(html).not.toContain('<script');
    expect(html.split(HOSTILE_HTML).join('')).not.toContain('Jerry');
    expect(html.split(HOSTILE_HTML).length - 1).toBeGreaterThanOrEqual(Object.keys(overrides).length);
  });

  test.each(LOCALES)('%s: a first name with markup is escaped in the greeting', (locale) => {
    const { html, text } = compose(locale, 'welcome', { firstName: HOSTILE });
    const hello = locale === 'de' ? 'Hallo' : 'Hello';
    expect(html).toContain(`>${hello} ${HOSTILE_HTML},</p>`);
    expect(text.split('\n')[0]).toBe(`${hello} ${HOSTILE},`);
  });

  const INJECTING_SITE = 'Ledger\r\nBcc: victim@example.com\nX-Injected: 1\u2028Reply-To: evil@example.com';
  const INJECTING_VALUE = 'Gold\r\n\r\nhttps://evil.example/phish\n';

  test.each(CASES)('%s %s: line breaks in values end no header and start no line', (locale, kind) => {
    const overrides = Object.fromEntries(
      Object.keys(SAMPLES[kind])
        .filter((key) => key !== 'kind' && key !== 'minutes' && key !== 'link')
        .map((key) => [key, INJECTING_VALUE]),
    );
    const { subject, text, html } = compose(locale, kind, overrides, INJECTING_SITE);
    expect(subject).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(subject).toContain('Ledger Bcc: victim@example.com X-Injected: 1 Reply-To: evil@example.com');
    // Wrapping may break a long value at a space like any other words; what a value must not do
    // is break a line itself: start a paragraph of its own, or show a link alone on its line.
    const paragraphs = text.split('\n\n');
    for (const paragraph of paragraphs) {
      expect(paragraph).not.toMatch(/^(Bcc|X-Injected|Reply-To|https:)/);
      expect(paragraph.split('\n')).not.toContain('https://evil.example/phish');
    }
    const unwrapped = text.replace(/(?<!\n)\n(?!\n)/g, ' ');
    expect(unwrapped).toContain('Ledger Bcc: victim@example.com X-Injected: 1 Reply-To: evil@example.com');
    if (Object.keys(overrides).length > 0) expect(unwrapped).toContain('Gold https://evil.example/phish');
    expect(text).not.toMatch(/[\r\u2028\u2029]/);
    expect(html).not.toMatch(/<title>[^<]*[\r\n]/);
  });
});

describe('words', () => {
  test.each([
    [30, '30 minutes', '30 Minuten'],
    [1, '1 minute', '1 Minute'],
    [90, '90 minutes', '90 Minuten'],
    [60, '1 hour', '1 Stunde'],
    [120, '2 hours', '2 Stunden'],
    [1440, '1 day', '1 Tag'],
    [2880, '2 days', '2 Tage'],
  ])('%i minutes read as "%s" and "%s"', (minutes, english, german) => {
    const inEnglish = compose('en', 'passwordReset', { minutes }).text;
    const inGerman = compose('de', 'passwordReset', { minutes }).text;
    expect(inEnglish).toContain(` ${english},`);
    expect(inGerman).toContain(` ${german} gültig`);
  });

  test.each([
    ['en', 'Ada', 'Hello Ada,'],
    ['en', undefined, 'Hello,'],
    ['en', '   ', 'Hello,'],
    ['de', 'Ada', 'Hallo Ada,'],
    ['de', undefined, 'Guten Tag,'],
  ])('%s: a welcome with first name %j opens with "%s"', (locale, firstName, greeting) => {
    const { text, html } = compose(locale, 'welcome', { firstName });
    expect(text.split('\n')[0]).toBe(greeting);
    expect(html).toContain(`>${greeting}</p>`);
  });

  test('the code is shown as typed, not grouped', () => {
    const { text } = composeMail(en, SAMPLES.signInCode);
    expect(text).toMatch(/^482913$/m);
    expect(text).not.toContain('482 913');
  });
});
