/** SVC_SMTP_URL, SVC_MAIL_FROM and SVC_OUTBOX_DIR: what each accepts, and what it says about a bad value. */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { DEFAULT_MAIL_FROM, MailConfigError, readMailConfig, type SmtpMailConfig } from '../../src/service/mail';
import { smtpTransportOptions } from '../../src/service/mail/smtp-transport';

const PASSWORD = 's3cret-pa55';

function problem(env: Record<string, string>, database = 'data/svc.db'): string {
  try {
    readMailConfig(env, database);
  } catch (error) {
    expect(error).toBeInstanceOf(MailConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

test.each([
  ['not a URL', `smtp://user:${PASSWORD}@mail example`, /^SVC_SMTP_URL is not a URL \(expected smtp:\/\/user:pass@host:port/],
  ['no scheme', `user:${PASSWORD}@mail.example`, /^SVC_SMTP_URL must start with smtp:\/\/ or smtps:\/\/, not user:\/\/$/],
  ['another scheme', `https://user:${PASSWORD}@mail.example`, /^SVC_SMTP_URL must start with smtp:\/\/ or smtps:\/\/, not https:\/\/$/],
  ['no host', `smtp://`, /^SVC_SMTP_URL names no host/],
  ['port 0', `smtp://user:${PASSWORD}@mail.example:0`, /^SVC_SMTP_URL names port 0$/],
  ['a port out of range', `smtp://user:${PASSWORD}@mail.example:70000`, /^SVC_SMTP_URL is not a URL/],
  ['a path', `smtp://user:${PASSWORD}@mail.example:587/inbox`, /^SVC_SMTP_URL must not have a path/],
  ['options', `smtp://user:${PASSWORD}@mail.example:587?secure=true`, /^SVC_SMTP_URL must not have \?options/],
  ['a password without a user', `smtp://:${PASSWORD}@mail.example`, /^SVC_SMTP_URL needs both a user name and a password, or neither$/],
  ['a user without a password', `smtp://user@mail.example`, /^SVC_SMTP_URL needs both a user name and a password, or neither$/],
  ['a broken percent-encoding', `smtp://user:${PASSWORD}%E0%A4%A@mail.example`, /^SVC_SMTP_URL has a password that is not valid percent-encoding/],
])('SVC_SMTP_URL with %s is refused, saying why and never showing the password', (_, url, expected) => {
  const message = problem({ SVC_SMTP_URL: url });
  expect(message).toMatch(expected);
  expect(message).not.toContain(PASSWORD);
  expect(message).not.toContain('s3cret');
});

test.each([
  ['no address', 'the ledger', /names no address, or more than one|has no valid addr@host/],
  ['two addresses', 'a@ledger.example, b@ledger.example', /names no address, or more than one/],
  ['a group', 'Team: a@ledger.example;', /names no address, or more than one/],
  ['an address without a host', 'Ledger <news@>', /has no valid addr@host \(found "news@"\)/],
  ['an address outside <…>', 'The Ledger news@ledger.example', /puts the address outside <…> after a name/],
  ['a line break', 'news@ledger.example\r\nBcc: all@example.org', /holds a line break/],
])('SVC_MAIL_FROM with %s is refused, naming the variable', (_, from, expected) => {
  const message = problem({ SVC_MAIL_FROM: from });
  expect(message).toMatch(/^SVC_MAIL_FROM must be one address, "Name <addr@host>" or addr@host, but it /);
  expect(message).toMatch(expected);
});

test('SVC_MAIL_FROM takes a bare address, a name with one, a quoted name, and Unicode', () => {
  const from = (value: string) => readMailConfig({ SVC_MAIL_FROM: value }, 'data/svc.db').from;
  expect(from('news@ledger.example')).toEqual({ address: 'news@ledger.example' });
  expect(from('The Weekly Ledger <news@ledger.example>')).toEqual({ name: 'The Weekly Ledger', address: 'news@ledger.example' });
  expect(from('"Ledger, The" <news@ledger.example>')).toEqual({ name: 'Ledger, The', address: 'news@ledger.example' });
  expect(from('Zoë <zoë@bücher.example>')).toEqual({ name: 'Zoë', address: 'zoë@bücher.example' });
  expect(from('  <news@ledger.example> ')).toEqual({ address: 'news@ledger.example' });
});

test('SVC_MAIL_FROM with quotes, a backslash, a comma or a letter beyond ASCII in its name reads as that name', () => {
  expect(readMailConfig({ SVC_MAIL_FROM: '"Ledger \\"The\\" \\\\ Co, Ltd" <news@ledger.example>' }, 'x.db').from).toEqual({ name: 'Ledger "The" \\ Co, Ltd', address: 'news@ledger.example' });
  expect(readMailConfig({ SVC_MAIL_FROM: 'Zoë <news@ledger.example>' }, 'x.db').from).toEqual({ name: 'Zoë', address: 'news@ledger.example' });
});

test('without SVC_MAIL_FROM mail comes from no-reply@localhost', () => {
  expect(DEFAULT_MAIL_FROM).toBe('no-reply@localhost');
  expect(readMailConfig({}, 'data/svc.db').from).toEqual({ address: 'no-reply@localhost' });
  expect(readMailConfig({ SVC_MAIL_FROM: ' ' }, 'data/svc.db').from).toEqual({ address: 'no-reply@localhost' });
});

test('SVC_SMTP_URL: smtp on 587 and smtps on 465 unless a port is named, credentials percent-decoded, shown without the password', () => {
  const smtp = readMailConfig({ SVC_SMTP_URL: `smtp://mailer%40ledger.example:${encodeURIComponent('p@ss:/word')}@mail.example` }, 'x.db');
  expect(smtp).toMatchObject({
    kind: 'smtp',
    server: { host: 'mail.example', port: 587, secure: false, auth: { user: 'mailer@ledger.example', pass: 'p@ss:/word' } },
    serverLabel: 'smtp://mailer%40ledger.example@mail.example:587',
  });
  expect(readMailConfig({ SVC_SMTP_URL: 'smtps://mail.example' }, 'x.db')).toMatchObject({ server: { port: 465, secure: true }, serverLabel: 'smtps://mail.example:465' });
  expect(readMailConfig({ SVC_SMTP_URL: 'smtp://[::1]:2525/' }, 'x.db')).toMatchObject({ server: { host: '::1', port: 2525 }, serverLabel: 'smtp://[::1]:2525' });
  const shown = readMailConfig({ SVC_SMTP_URL: `smtp://user:${PASSWORD}@mail.example:25` }, 'x.db');
  expect(shown.kind === 'smtp' && shown.serverLabel).toBe('smtp://user@mail.example:25');
});

test('without SVC_SMTP_URL mail goes to outbox/ beside the database file, or to SVC_OUTBOX_DIR', () => {
  expect(readMailConfig({}, 'data/svc.db')).toMatchObject({ kind: 'outbox', dir: resolve('data/outbox'), source: 'database' });
  expect(readMailConfig({ SVC_SMTP_URL: '' }, '/srv/svc/main.db')).toMatchObject({ kind: 'outbox', dir: '/srv/svc/outbox' });
  expect(readMailConfig({}, 'file:/srv/svc/main.db?cache=shared')).toMatchObject({ dir: '/srv/svc/outbox', source: 'database' });
  expect(readMailConfig({ SVC_OUTBOX_DIR: 'mail/out' }, 'data/svc.db')).toMatchObject({ dir: resolve('mail/out'), source: 'SVC_OUTBOX_DIR' });
});

test('an in-memory database keeps its outbox in a directory of its own process, unless SVC_OUTBOX_DIR names one', () => {
  const own = join(tmpdir(), `svc-outbox-${process.pid}`);
  expect(readMailConfig({}, ':memory:')).toMatchObject({ kind: 'outbox', dir: own, source: 'process' });
  expect(readMailConfig({}, 'file::memory:?cache=shared')).toMatchObject({ dir: own, source: 'process' });
  expect(readMailConfig({}, 'file:ledger?mode=memory')).toMatchObject({ dir: own, source: 'process' });
  expect(readMailConfig({ SVC_OUTBOX_DIR: '/tmp/x' }, ':memory:')).toMatchObject({ dir: '/tmp/x', source: 'SVC_OUTBOX_DIR' });
});

test('a database server has no directory beside it: the outbox needs SVC_OUTBOX_DIR', () => {
  expect(problem({}, 'postgres://svc@db.example/svc')).toMatch(/^SVC_OUTBOX_DIR must be set for a database that is not a file/);
  expect(readMailConfig({ SVC_SMTP_URL: 'smtp://mail.example' }, 'postgres://svc@db.example/svc').kind).toBe('smtp');
});

test('credentials to another machine over smtp:// require STARTTLS; smtps://, no credentials, or this machine do not', () => {
  const options = (url: string) => smtpTransportOptions(readMailConfig({ SVC_SMTP_URL: url }, ':memory:') as SmtpMailConfig);
  expect(options('smtp://user:pass@mail.example:587').requireTLS).toBe(true);
  expect(options('smtps://user:pass@mail.example').requireTLS).toBe(false);
  expect(options('smtp://mail.example:25').requireTLS).toBe(false);
  for (const host of ['127.0.0.1', 'localhost', '[::1]']) expect(options(`smtp://user:pass@${host}:2525`).requireTLS).toBe(false);
});
