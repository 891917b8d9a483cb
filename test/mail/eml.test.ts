/** What the outbox writes reads back (mailparser, as `svc outbox` reads it) as what was sent, in any script; findLinks finds what a reader would click. */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, expect, test } from 'vitest';
import { createMailTransport, findLinks, type MailMessage } from '../../src/service/mail';

const dir = mkdtempSync(join(tmpdir(), 'svc-eml-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const messages: Record<string, MailMessage> = {
  ascii: { to: 'ada@demo.localhost', subject: 'Hello', text: 'Plain and short.' },
  'quoted-printable': {
    to: 'Zoë Ünal <zoe@demo.localhost>',
    from: { name: 'Bücher & Co', address: 'news@ledger.example' },
    subject: 'Ihr Anmeldelink – gültig 15 Minuten, für Zoë, mit einem sehr langen Betreff der gefaltet werden muss',
    text: `Grüße,\n\n${'ein langer Satz ohne Umbruch '.repeat(12)}\nhttps://ledger.example/a?b=c&d=e\n\ttab and trailing space \n`,
    html: '<p>Grüße — <a href="https://ledger.example/a?b=c&amp;d=e">öffnen</a></p>',
  },
  base64: {
    to: 'ada@demo.localhost',
    subject: 'ログインコード',
    text: 'あなたのログインコードは 123456 です。\nhttps://ledger.example/ログイン\n',
    html: '<p>ログインコード: <b>123456</b></p>',
  },
};

test.each(Object.entries(messages))('a %s message in the outbox reads back as it was sent', async (_, message) => {
  const out = join(dir, message.subject.slice(0, 5).replace(/\W/g, '') || 'x');
  const transport = createMailTransport({ kind: 'outbox', dir: out, source: 'SVC_OUTBOX_DIR', from: { address: 'no-reply@localhost' } });
  await transport.send(message);
  const [file] = readdirSync(out);
  const bytes = readFileSync(join(out, file!));
  const parsed = await simpleParser(bytes);
  // A text that does not end a line ends one in the message (nodemailer adds it).
  expect(parsed.text).toBe(message.text.endsWith('\n') ? message.text : `${message.text}\n`);
  expect(parsed.html === false ? undefined : parsed.html).toBe(message.html);
  expect(parsed.subject).toBe(message.subject);
  const to = parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0]! : undefined;
  expect(to?.address).toBe(/<(.+)>/.exec(message.to)?.[1] ?? message.to);
  expect(parsed.messageId).toMatch(/^<.+@.+>$/);
});

test('findLinks: http(s) addresses of the text, then of the HTML, once each, without the punctuation after them', () => {
  const text = [
    'Sign in at https://ledger.example/sign-in?code=1&x=2. Or (see http://example.org/help).',
    'Wiki: https://en.wikipedia.org/wiki/Ledger_(book). Again: https://ledger.example/sign-in?code=1&x=2!',
    'Not these: ftp://files.example, mailto:ada@demo.localhost, ledger.example/bare',
  ].join('\n');
  const html = '<a href="https://ledger.example/sign-in?code=1&amp;x=2">in</a> <a href=\'https://ledger.example/&#x61;bout\'>about</a> <img src="https://cdn.example/logo.png"> https://ledger.example/plain&lt;';
  expect(findLinks(text, html)).toEqual([
    'https://ledger.example/sign-in?code=1&x=2',
    'http://example.org/help',
    'https://en.wikipedia.org/wiki/Ledger_(book)',
    'https://ledger.example/about',
    'https://cdn.example/logo.png',
    'https://ledger.example/plain',
  ]);
  expect(findLinks('no links here')).toEqual([]);
});
