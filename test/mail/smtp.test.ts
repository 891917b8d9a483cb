/** The SMTP transport against a real SMTP server in this process (smtp-server), read back with mailparser. */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAIL_LEASE_MS } from '../../src/service/mail/send-queued';
import { createMailTransport, MailSendError, readMailConfig, type MailTransport, type SmtpMailConfig } from '../../src/service/mail';

const received: ParsedMail[] = [];
let port = 0;
let smtp: SMTPServer;
const transports: MailTransport[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    secure: false,
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'user' && auth.password === 'pass') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      const reject = (code: number, message: string) => callback(Object.assign(new Error(message), { responseCode: code }));
      if (address.address.startsWith('busy@')) return reject(451, 'Mailbox busy, try again later');
      if (address.address.startsWith('nobody@')) return reject(550, 'No such user here');
      callback();
    },
    onData(stream, session, callback) {
      // Takes the message and never answers: only the whole-send limit ends the wait.
      if (session.envelope.rcptTo.some((r) => r.address.startsWith('stall@'))) return void stream.resume();
      simpleParser(stream).then((mail) => {
        received.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await Promise.all(transports.map((t) => t.close()));
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

function transport(url: string, timeouts: Partial<SmtpMailConfig['timeouts']> = {}): MailTransport {
  const config = readMailConfig({ SVC_SMTP_URL: url, SVC_MAIL_FROM: 'The Weekly Ledger <news@ledger.example>' }, ':memory:') as SmtpMailConfig;
  const created = createMailTransport({ ...config, timeouts: { ...config.timeouts, ...timeouts } });
  transports.push(created);
  return created;
}

async function failure(sending: Promise<unknown>): Promise<MailSendError> {
  const error = await sending.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MailSendError);
  return error as MailSendError;
}

const message = {
  to: 'ada@demo.localhost',
  subject: 'Your sign-in link – Ledger',
  text: 'Hello Ada,\n\nsign in: https://ledger.example/?svcopen=/member/sign_in&code=123456\n',
  html: '<p>Hello Ada,</p><p><a href="https://ledger.example/?svcopen=/member/sign_in&amp;code=123456">Sign in</a></p>',
};

test('a message with text and HTML reaches the server as sent, with a Message-ID, after authenticating', async () => {
  const mail = transport(`smtp://user:pass@127.0.0.1:${port}`);
  expect(mail.kind).toBe('smtp');
  const { messageId } = await mail.send({ ...message, replyTo: 'help@ledger.example', headers: { 'X-Svc-Mail': 'signInCode' } });
  const got = received.find((m) => m.messageId === messageId)!;
  expect(got).toBeDefined();
  expect(messageId).toMatch(/^<[^<>\s]+@ledger\.example>$/);
  expect(got.from?.value).toEqual([{ name: 'The Weekly Ledger', address: 'news@ledger.example' }]);
  expect(got.to).toMatchObject({ value: [{ address: 'ada@demo.localhost', name: '' }] });
  expect(got.replyTo?.value[0]?.address).toBe('help@ledger.example');
  expect(got.subject).toBe(message.subject);
  expect(got.text).toBe(message.text);
  expect(got.html).toBe(message.html);
  expect(got.headers.get('x-svc-mail')).toBe('signInCode');
});

test('a sender given in the message replaces the configured one', async () => {
  const mail = transport(`smtp://user:pass@127.0.0.1:${port}`);
  const { messageId } = await mail.send({ ...message, from: { name: 'Ledger "Support"', address: 'support@ledger.example' } });
  const got = received.find((m) => m.messageId === messageId)!;
  expect(got.from?.value).toEqual([{ name: 'Ledger "Support"', address: 'support@ledger.example' }]);
});

test('a closed transport refuses to send, and closing twice is fine', async () => {
  const mail = transport(`smtp://user:pass@127.0.0.1:${port}`);
  await mail.close();
  await mail.close();
  await expect(mail.send(message)).rejects.toMatchObject({ name: 'MailSendError', permanent: false });
});

test('a wrong password is a permanent failure, with the server reply code and no password in it', async () => {
  const error = await failure(transport(`smtp://user:wrong-secret@127.0.0.1:${port}`).send(message));
  expect(error).toMatchObject({ permanent: true, responseCode: 535, code: 'EAUTH' });
  expect(`${error.message} ${error.stack}`).not.toContain('wrong-secret');
});

test('a server that answers 451 to the recipient gives a temporary failure', async () => {
  const error = await failure(transport(`smtp://user:pass@127.0.0.1:${port}`).send({ ...message, to: 'busy@demo.localhost' }));
  expect(error).toMatchObject({ permanent: false, responseCode: 451 });
});

test('a server that answers 550 to the recipient gives a permanent failure', async () => {
  const error = await failure(transport(`smtp://user:pass@127.0.0.1:${port}`).send({ ...message, to: 'nobody@demo.localhost' }));
  expect(error).toMatchObject({ permanent: true, responseCode: 550 });
});

test('a port nobody listens on fails at once, as a temporary failure', async () => {
  const closed = await freePort();
  const started = Date.now();
  const error = await failure(transport(`smtp://user:pass@127.0.0.1:${closed}`).send(message));
  expect(Date.now() - started).toBeLessThan(3000);
  expect(error).toMatchObject({ permanent: false, code: 'ECONNREFUSED' });
  expect(error.responseCode).toBeUndefined();
});

test('a server that never greets fails the send when the greeting timeout ends, as a temporary failure', async () => {
  const sockets = new Set<Socket>();
  const silent: Server = createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const started = Date.now();
    const mail = transport(`smtp://user:pass@127.0.0.1:${(silent.address() as AddressInfo).port}`, { greeting: 300 });
    const error = await failure(mail.send(message));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error).toMatchObject({ permanent: false, code: 'ETIMEDOUT' });
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test('a server that takes the message and never answers fails the send when the send limit ends, as a temporary failure', async () => {
  const started = Date.now();
  const mail = transport(`smtp://user:pass@127.0.0.1:${port}`, { send: 400 });
  const error = await failure(mail.send({ ...message, to: 'stall@demo.localhost' }));
  expect(Date.now() - started).toBeLessThan(3000);
  expect(error).toMatchObject({ permanent: false, code: 'ETIMEDOUT', message: 'the SMTP server took more than 400 ms over one message' });
});

test('by default a send ends within the lease the sender holds on a mail, and no single wait outlasts it', () => {
  const { timeouts } = readMailConfig({ SVC_SMTP_URL: 'smtps://mail.example' }, 'data/svc.db') as SmtpMailConfig;
  expect(timeouts.send).toBeLessThan(MAIL_LEASE_MS);
  for (const ms of Object.values(timeouts)) expect(ms).toBeLessThanOrEqual(timeouts.send);
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
}
