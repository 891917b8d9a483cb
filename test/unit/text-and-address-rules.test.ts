/**
 * Issue 26, the rules themselves (src/service/domain/validation.ts): the one text rule
 * (textProblem) and its JSON Schema patterns say the same of every character, and the one
 * e-mail address check (emailAddress: the WHATWG grammar of `<input type=email>`, a dot in the
 * domain, at most 254 characters, trimmed and lower-cased) is what the site file's reply-to
 * address is read with too.
 */
import { describe, expect, test } from 'vitest';
import { emailAddress, TEXT_RULE, textProblem } from '../../src/service/domain/validation';
import { readSiteFile, SiteFileError } from '../../src/service/site-file/read';
import { ACCEPTED, REFUSED } from '../support/email-spellings';

describe('the text rule and its JSON Schema patterns agree', () => {
  const oneLine = new RegExp(TEXT_RULE.oneLine.pattern);
  const multiline = new RegExp(TEXT_RULE.multiline.pattern);
  /** textProblem's verdict on control characters alone (a pattern says nothing of lone surrogates). */
  const controlFree = (text: string, opts: { multiline?: boolean }) => {
    const problem = textProblem(text, opts);
    return problem === undefined || problem === TEXT_RULE.loneSurrogate;
  };

  test('for every character from U+0000 to U+02FF, alone, between letters, and before and after an LF', () => {
    for (let code = 0; code <= 0x2ff; code++) {
      const c = String.fromCharCode(code);
      for (const text of [c, `a${c}b`, `${c}\n`, `\n${c}`, `\r${c}`, `${c}\r`]) {
        expect(oneLine.test(text), `one-line ${JSON.stringify(text)}`).toBe(controlFree(text, {}));
        expect(multiline.test(text), `multi-line ${JSON.stringify(text)}`).toBe(controlFree(text, { multiline: true }));
      }
    }
  });

  test('line breaks: LF, CRLF and tab are multi-line text, a lone CR is not; none is one-line text', () => {
    for (const text of ['a\nb', 'a\r\nb', 'a\tb', '\r\n\r\n', 'a\n\n']) {
      expect(textProblem(text, { multiline: true }), JSON.stringify(text)).toBeUndefined();
      expect(multiline.test(text)).toBe(true);
      expect(textProblem(text)).toBe(TEXT_RULE.oneLine.message);
      expect(oneLine.test(text)).toBe(false);
    }
    for (const text of ['a\rb', '\r', 'a\r\r\nb', '\n\r']) {
      expect(textProblem(text, { multiline: true }), JSON.stringify(text)).toBe(TEXT_RULE.multiline.message);
      expect(multiline.test(text), JSON.stringify(text)).toBe(false);
    }
  });

  test('lone surrogates are text by neither; a whole pair is', () => {
    for (const text of ['\ud800', 'a\udfff', '\udc00\ud800']) {
      expect(textProblem(text)).toBe(TEXT_RULE.loneSurrogate);
      expect(textProblem(text, { multiline: true })).toBe(TEXT_RULE.loneSurrogate);
    }
    expect(textProblem('😀 𝔘')).toBeUndefined();
  });
});

describe('emailAddress, the one e-mail address check', () => {
  test.each(REFUSED)('%j is no plain address', (typed) => {
    expect(emailAddress(typed)).toBeUndefined();
  });

  test.each(ACCEPTED)('%j is one, stored as %j', (typed, stored) => {
    expect(emailAddress(typed)).toBe(stored);
  });

  test('a control character anywhere in what was given, even where trimming would drop it, is refused', () => {
    for (const typed of ['ada@example.com\n', '\tada@example.com', 'ada@example.com\u0000', 'ada@example.com\u0085']) {
      expect(emailAddress(typed), JSON.stringify(typed)).toBeUndefined();
    }
  });
});

describe('the site file’s mail.replyTo is read with the same check', () => {
  const read = (replyTo: string) => readSiteFile(JSON.stringify({ site: { subdomain: 'acme', name: 'Acme', mail: { replyTo } } }), 'json', 'acme.json');

  test.each(REFUSED)('replyTo %j is refused, naming site.mail.replyTo', (replyTo) => {
    let problems: string[] = [];
    try {
      read(replyTo);
    } catch (error) {
      if (!(error instanceof SiteFileError)) throw error;
      problems = error.problems.map((p) => p.path);
    }
    expect([...new Set(problems)]).toEqual(['site.mail.replyTo']);
  });

  test.each(ACCEPTED)('replyTo %j is read as %j', (replyTo, stored) => {
    expect(read(replyTo).file.site.mail?.replyTo).toBe(stored);
  });
});
