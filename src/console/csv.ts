/**
 * Tables as CSV (RFC 4180: comma-separated, CRLF between records). A value with a comma, a
 * quote or a line break is quoted, its quotes doubled. A text that starts with `=`, `+`, `-`, `@`
 * (or a tab or carriage return) gets a leading `'`: a spreadsheet would otherwise run it as a
 * formula, and member names and e-mails are typed by anyone (OWASP's "CSV injection"). Numbers
 * are written as numbers: a negative amount stays a number.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
