/**
 * The owner console's CSV (src/console/csv.ts): RFC 4180 quoting, and no cell a spreadsheet would
 * run as a formula (OWASP "CSV injection": a leading `=`, `+`, `-`, `@`, tab or carriage return).
 */
import { expect, test } from 'vitest';
import { csvCell, toCsv } from '../../src/console/csv';

test('plain values as they are; nothing for null and undefined; numbers and booleans as written', () => {
  expect(csvCell('Ada')).toBe('Ada');
  expect(csvCell('')).toBe('');
  expect(csvCell(null)).toBe('');
  expect(csvCell(undefined)).toBe('');
  expect(csvCell(12.5)).toBe('12.5');
  expect(csvCell(-3)).toBe('-3'); // a number is no formula
  expect(csvCell(true)).toBe('true');
});

test('commas, quotes and line breaks are quoted, quotes doubled', () => {
  expect(csvCell('Doe, Jane')).toBe('"Doe, Jane"');
  expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  expect(csvCell('two\nlines')).toBe('"two\nlines"');
  expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
});

test('a text starting like a formula gets a leading apostrophe, then is quoted if it must be', () => {
  expect(csvCell('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
  expect(csvCell('+1 555')).toBe("'+1 555");
  expect(csvCell('-5')).toBe("'-5");
  expect(csvCell('@cmd')).toBe("'@cmd");
  expect(csvCell('\tindent')).toBe("'\tindent");
  expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe('"\'=HYPERLINK(""http://evil.example"",""x"")"');
  // Only at the start: inside a value they are harmless.
  expect(csvCell('a=b')).toBe('a=b');
  expect(csvCell('ada@example.com')).toBe('ada@example.com');
});

test('a table: a header line, one line a row, CRLF after each', () => {
  expect(
    toCsv(
      ['Name', 'E-mail', 'Total'],
      [
        ['Ada Lovelace', 'ada@example.com', 12],
        ['=1+1', 'x, y', null],
      ],
    ),
  ).toBe('Name,E-mail,Total\r\nAda Lovelace,ada@example.com,12\r\n\'=1+1,"x, y",\r\n');
});
