/** Mail without SMTP: .eml files in the outbox directory, and `svc outbox` printing them, once or as they come. */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { simpleParser } from 'mailparser';
import { expect, test } from 'vitest';
import { main } from '../../src/cli/main';
import { createMailTransport, readMailConfig, type MailMessage } from '../../src/service/mail';
import { useTempDatabase } from '../cli/harness';
import { CHILD_NODE_OPTIONS } from '../support/svc-process';

const { db, dir, svc } = useTempDatabase('svc-mail-outbox-');

const welcome: MailMessage = {
  to: 'ada@demo.localhost',
  subject: 'Welcome to The Weekly Ledger',
  text: 'Hello Ada,\n\nyour account is ready: https://ledger.example/welcome.html\n',
};
const signIn: MailMessage = {
  to: 'Ada Lovelace <ada@demo.localhost>',
  from: { name: 'The Weekly Ledger', address: 'news@ledger.example' },
  replyTo: 'help@ledger.example',
  subject: 'Your sign-in code: 123456 – für Ada',
  text: 'Your code is 123456.\nOr open https://ledger.example/?svcopen=/member/sign_in&code=123456.\n',
  html: '<p>Your code is <b>123456</b>.</p><p><a href="https://ledger.example/?svcopen=/member/sign_in&amp;code=123456">Sign in</a> · <a href="https://ledger.example/help">Help</a></p>',
};

async function sendAll(...messages: MailMessage[]): Promise<string[]> {
  const transport = createMailTransport(readMailConfig({}, db()));
  expect(transport.kind).toBe('outbox');
  try {
    const ids: string[] = [];
    for (const message of messages) ids.push((await transport.send(message)).messageId);
    return ids;
  } finally {
    await transport.close();
  }
}

test('each message is one owner-only .eml file beside the database, which mailparser reads back as sent', async () => {
  const ids = await sendAll(welcome, signIn);
  const outbox = join(dir(), 'outbox');
  expect(statSync(outbox).mode & 0o777).toBe(0o700);
  const files = readdirSync(outbox);
  expect(files).toHaveLength(2);
  for (const file of files) {
    expect(file).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[A-Za-z0-9._-]+\.eml$/);
    expect(statSync(join(outbox, file)).mode & 0o777).toBe(0o600);
  }
  const [first, second] = await Promise.all(files.sort().map((file) => simpleParser(readFileSync(join(outbox, file)))));
  expect(first).toMatchObject({ messageId: ids[0], subject: welcome.subject, text: welcome.text, html: false });
  expect(first!.from?.value).toEqual([{ name: '', address: 'no-reply@localhost' }]);
  expect(first!.to).toMatchObject({ value: [{ address: 'ada@demo.localhost' }] });
  expect(second).toMatchObject({ messageId: ids[1], subject: signIn.subject, text: signIn.text, html: signIn.html });
  expect(second!.from?.value).toEqual([{ name: 'The Weekly Ledger', address: 'news@ledger.example' }]);
  expect(second!.to).toMatchObject({ value: [{ name: 'Ada Lovelace', address: 'ada@demo.localhost' }] });
  expect(second!.replyTo?.value[0]?.address).toBe('help@ledger.example');
  // Exactly as SMTP would carry it: CRLF line ends throughout.
  const raw = readFileSync(join(outbox, files[1]!), 'latin1');
  expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
});

test('svc outbox prints every message, oldest first, with its links', async () => {
  await sendAll(welcome, signIn);
  const run = await svc('outbox');
  expect(run).toMatchObject({ code: 0, err: '' });
  const out = run.out.join('\n');
  const [one, two, ...rest] = out.split(`\n${'-'.repeat(72)}\n`);
  expect(rest).toEqual([]);
  expect(one).toMatch(/^Date: .+ \+0000\nFrom: no-reply@localhost\nTo: ada@demo\.localhost\nSubject: Welcome to The Weekly Ledger\n\n/);
  expect(one).toContain(`\n\n${welcome.text.trimEnd()}\n\nLinks:\nhttps://ledger.example/welcome.html`);
  expect(two).toMatch(/\nFrom: The Weekly Ledger <news@ledger\.example>\nTo: Ada Lovelace <ada@demo\.localhost>\nReply-To: help@ledger\.example\nSubject: Your sign-in code: 123456 – für Ada\n/);
  expect(two).toContain('\n\nYour code is 123456.\nOr open https://ledger.example/?svcopen=/member/sign_in&code=123456.\n');
  expect(two!.endsWith('\nLinks:\nhttps://ledger.example/?svcopen=/member/sign_in&code=123456\nhttps://ledger.example/help')).toBe(true);
});

test('svc outbox on an empty outbox says so on stderr and exits 0', async () => {
  const run = await svc('outbox');
  expect(run).toEqual({ code: 0, out: [], err: `no mail in ${join(dir(), 'outbox')}` });
});

test('svc outbox with SMTP configured says where mail goes instead, without the password', async () => {
  const err: string[] = [];
  const out: string[] = [];
  const env = { SVC_DB: db(), SVC_SMTP_URL: 'smtp://mailer:hunter22@mail.example:2525' };
  const code = await main(['outbox'], env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  expect({ code, out, err }).toEqual({
    code: 0,
    out: [],
    err: ['mail goes to the SMTP server smtp://mailer@mail.example:2525 (SVC_SMTP_URL): the outbox holds nothing'],
  });
});

test('svc outbox refuses bad mail settings and an in-memory database without SVC_OUTBOX_DIR, exit 2', async () => {
  const run = async (env: Record<string, string>, ...argv: string[]) => {
    const err: string[] = [];
    const code = await main(['outbox', ...argv], { SVC_DB: db(), ...env }, { out: () => undefined, err: (l) => err.push(l) });
    return { code, err: err.join('\n') };
  };
  expect(await run({ SVC_SMTP_URL: 'http://mail.example' })).toMatchObject({ code: 2, err: expect.stringMatching(/^SVC_SMTP_URL must start with smtp:\/\//) });
  expect(await run({ SVC_MAIL_FROM: 'nobody' })).toMatchObject({ code: 2, err: expect.stringMatching(/^SVC_MAIL_FROM must be one address/) });
  expect(await run({}, '--db', ':memory:')).toMatchObject({ code: 2, err: expect.stringMatching(/in-memory database .* set SVC_OUTBOX_DIR/) });
  expect(await run({}, 'extra')).toMatchObject({ code: 2, err: expect.stringContaining('usage:') });
  expect(await run({}, '--help')).toMatchObject({ code: 0, err: expect.stringMatching(/^usage: svc outbox .*\n[\s\S]*stdout[\s\S]*stderr/) });
});

test('svc outbox --follow prints what is there, then each new message as it comes, until SIGTERM', async () => {
  await sendAll(welcome);
  const child = spawn(process.execPath, [...CHILD_NODE_OPTIONS, 'bin/svc.js', 'outbox', '--follow'], {
    env: { ...process.env, SVC_DB: db(), SVC_SMTP_URL: '', SVC_OUTBOX_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: Array<() => void> = [];
  const seen = (lines: string[], pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => lines.some((l) => pattern.test(l)) && (resolve(), true);
      if (!check()) waiters.push(() => void check());
      child.once('close', () => reject(new Error(`svc outbox exited; stderr: ${stderr.join('\n')}`)));
    });
  const record = (lines: string[]) => (line: string) => {
    lines.push(line);
    for (const wake of waiters) wake();
  };
  createInterface({ input: child.stdout! }).on('line', record(stdout));
  createInterface({ input: child.stderr! }).on('line', record(stderr));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));

  await seen(stderr, /waiting for new mail in .*outbox/);
  expect(stdout).toContain(`Subject: ${welcome.subject}`);
  await sendAll(signIn);
  await seen(stdout, /^https:\/\/ledger\.example\/help$/);
  child.kill('SIGTERM');
  expect(await closed).toBe(0);
  expect(stdout.filter((l) => l.startsWith('Subject: '))).toEqual([`Subject: ${welcome.subject}`, `Subject: ${signIn.subject}`]);
  expect(stdout.filter((l) => l === '-'.repeat(72))).toHaveLength(1);
});

test('a closed transport refuses to send, as a temporary failure, and closing twice is fine', async () => {
  const transport = createMailTransport(readMailConfig({}, db()));
  await transport.close();
  await transport.close();
  await expect(transport.send(welcome)).rejects.toMatchObject({ name: 'MailSendError', permanent: false });
  expect(readdirSync(dir())).not.toContain('outbox');
});
