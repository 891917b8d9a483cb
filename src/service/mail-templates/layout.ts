/**
 * The HTML version: one small complete document with inline styles only. Mail clients drop
 * <style> blocks unpredictably, and anything remote (images, fonts, stylesheets) would load
 * from elsewhere and tell that the mail was opened, so there is none. Every value is escaped
 * here, in one place, and nothing else builds markup.
 */
import { escapeHtml, isWebLink } from './escape';
import type { MailParts, Words } from './parts';

// System font stacks: nothing to download.
const SANS = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace";

const STYLE = {
  body: `margin:0;padding:24px 12px;background:#f4f4f5;color:#18181b;font-family:${SANS};font-size:16px;line-height:1.5`,
  card: 'max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px',
  site: 'margin:0 0 24px;font-size:18px;font-weight:700',
  p: 'margin:0 0 16px',
  code: `margin:0 0 16px;padding:12px 16px;background:#f4f4f5;border-radius:6px;font-family:${MONO};font-size:32px;font-weight:700;letter-spacing:6px;text-align:center`,
  facts: 'margin:0 0 16px;border-collapse:collapse',
  factLabel: 'padding:4px 16px 4px 0;text-align:left;font-weight:600;vertical-align:top',
  factValue: 'padding:4px 0;vertical-align:top',
  buttonRow: 'margin:0 0 16px',
  button: 'display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;border-radius:6px;font-weight:600;text-decoration:none',
  url: 'margin:0 0 16px;font-size:13px;color:#52525b;word-break:break-all',
};

export function renderHtml(parts: MailParts, site: string, words: Pick<Words, 'lang' | 'linkHint'>): string {
  const body: string[] = [
    `<p style="${STYLE.site}">${escapeHtml(site)}</p>`,
    paragraph(parts.greeting),
    ...parts.intro.map(paragraph),
  ];
  if (parts.code) {
    body.push(paragraph(parts.code.label), `<p style="${STYLE.code}">${escapeHtml(parts.code.value)}</p>`);
  }
  if (parts.facts) body.push(facts(parts.facts));
  if (parts.action) body.push(paragraph(parts.action.intro), ...action(parts.action, words.linkHint));
  body.push(...parts.outro.map(paragraph));

  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(words.lang)}">`,
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(parts.subject)}</title>`,
    `<body style="${STYLE.body}">`,
    `<div style="${STYLE.card}">`,
    ...body,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function paragraph(text: string): string {
  return `<p style="${STYLE.p}">${escapeHtml(text)}</p>`;
}

function facts(rows: Array<[string, string]>): string {
  const cells = rows.map(
    ([label, value]) =>
      `<tr><th scope="row" style="${STYLE.factLabel}">${escapeHtml(label)}</th><td style="${STYLE.factValue}">${escapeHtml(value)}</td></tr>`,
  );
  return `<table role="presentation" style="${STYLE.facts}">\n${cells.join('\n')}\n</table>`;
}

/** A button and the address under it; an address that is not http(s) is shown, never linked. */
function action({ button, link }: { button: string; link: string }, linkHint: string): string[] {
  const url = escapeHtml(link);
  if (!isWebLink(link)) return [`<p style="${STYLE.url}">${url}</p>`];
  return [
    `<p style="${STYLE.buttonRow}"><a href="${url}" style="${STYLE.button}">${escapeHtml(button)}</a></p>`,
    `<p style="${STYLE.url}">${escapeHtml(linkHint)}<br>${url}</p>`,
  ];
}
