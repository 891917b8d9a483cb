/**
 * The outbox's sender (src/service/mail/send-queued.ts) over the memory store, with a transport
 * the test scripts: a sent mail is recorded sent; a temporary failure comes back later, backing
 * off; a permanent one, or the eighth temporary one, is given up and reported (never silently);
 * two senders side by side send each mail once; the site's name goes beside the service's address.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { listOutboxFiles } from '../../src/service/mail/outbox-files';
import { createOutboxTransport } from '../../src/service/mail/outbox-transport';
import { fromMailbox, MAIL_LEASE_MS, MAIL_MAX_ATTEMPTS, mailRetryDelay, sendQueuedMail, type MailSendDeps } from '../../src/service/mail/send-queued';
import { createMemoryStore } from '../../src/service/store/memory';
import type { NewMail } from '../../src/service/store/records';
import type { Store } from '../../src/service/store/store';
import { newSite } from '../store-contract/fixtures';

const T0 = Date.UTC(2026, 10, 25);
let store: Store;
let siteId: number;
let now: number;
let sent: Parameters<MailSendDeps['transport']['send']>[0][];
let reports: string[];
/** What the transport does with the next sends, in order: 'ok', or an error to throw. */
let script: ('ok' | Error)[];

const fail = (message: string, permanent: boolean) => Object.assign(new Error(message), { permanent });
const deps = (): MailSendDeps => ({
  store,
  clock: () => now,
  from: { address: 'no-reply@mail.example' },
  report: (message) => reports.push(message),
  transport: {
    async send(message) {
      const next = script.shift() ?? 'ok';
      if (next !== 'ok') throw next;
      sent.push(message);
    },
  },
});
const mail = (to: string, overrides: Partial<NewMail> = {}): NewMail => ({
  siteId, kind: 'passwordReset', to, subject: 'Reset your password', text: 'https://shop.example/?svcopen=/member/reset/x', createdAt: T0, ...overrides,
});

beforeEach(async () => {
  store = createMemoryStore();
  siteId = (await store.createSite(newSite('shop'))).id;
  now = T0;
  sent = [];
  reports = [];
  script = [];
});
afterEach(() => store.close());

test('a queued mail is sent once, from the site\'s name at the service\'s address, and recorded sent', async () => {
  const [id] = await store.queueMail([mail('ann@example.com', { fromName: 'Shop "Best" Co', replyTo: 'help@shop.example' })]);
  expect(await sendQueuedMail(deps())).toBe(1);
  expect(sent).toEqual([{ to: 'ann@example.com', from: { name: 'Shop "Best" Co', address: 'no-reply@mail.example' }, replyTo: 'help@shop.example', subject: 'Reset your password', text: 'https://shop.example/?svcopen=/member/reset/x' }]);
  expect(await store.getMail(id!)).toMatchObject({ status: 'sent', sentAt: T0, attempts: 1 });
  expect(await sendQueuedMail(deps())).toBe(0);
  expect(sent).toHaveLength(1);
  expect(reports).toEqual([]);
});

test('a temporary failure is tried again after the back-off, and then sent', async () => {
  const [id] = await store.queueMail([mail('ann@example.com')]);
  script = [fail('451 4.3.0 try again later', false)];
  expect(await sendQueuedMail(deps())).toBe(0);
  expect(await store.getMail(id!)).toMatchObject({ status: 'queued', lastError: '451 4.3.0 try again later', nextAttemptAt: T0 + mailRetryDelay(1) });
  now = T0 + mailRetryDelay(1) - 1;
  expect(await sendQueuedMail(deps())).toBe(0);
  now = T0 + mailRetryDelay(1);
  expect(await sendQueuedMail(deps())).toBe(1);
  expect(await store.getMail(id!)).toMatchObject({ status: 'sent', attempts: 2 });
  expect(reports).toEqual([]);
});

test('a permanent failure is given up at once and reported with its error', async () => {
  const [id] = await store.queueMail([mail('nobody@example.com')]);
  script = [fail('550 5.1.1 no such user', true)];
  expect(await sendQueuedMail(deps())).toBe(0);
  expect(await store.getMail(id!)).toMatchObject({ status: 'failed', lastError: '550 5.1.1 no such user', attempts: 1 });
  expect(reports).toEqual([`mail ${id} (passwordReset to nobody@example.com) is given up after 1 attempt(s): 550 5.1.1 no such user`]);
  now += 24 * 60 * 60_000;
  expect(await sendQueuedMail(deps())).toBe(0);
  expect(sent).toEqual([]);
});

test(`a mail that fails ${MAIL_MAX_ATTEMPTS} times for the moment is given up on the last, and reported; the delays grow to an hour`, async () => {
  const [id] = await store.queueMail([mail('ann@example.com')]);
  script = Array.from({ length: MAIL_MAX_ATTEMPTS }, () => fail('connect ECONNREFUSED', false));
  for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
    await sendQueuedMail(deps());
    now += mailRetryDelay(attempt);
  }
  expect(await store.getMail(id!)).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS });
  expect(reports).toHaveLength(1);
  expect([1, 2, 3, 8, 20].map(mailRetryDelay)).toEqual([30_000, 60_000, 120_000, 3_600_000, 3_600_000]);
});

test('two senders side by side (two processes\' passes at once) send every mail exactly once', async () => {
  await store.queueMail(Array.from({ length: 25 }, (_, i) => mail(`m${i}@example.com`)));
  const [a, b] = await Promise.all([sendQueuedMail(deps(), 10), sendQueuedMail(deps(), 10)]);
  await sendQueuedMail(deps(), 10);
  expect(a + b).toBeGreaterThan(0);
  expect(sent.map((m) => m.to).sort()).toEqual(Array.from({ length: 25 }, (_, i) => `m${i}@example.com`).sort());
});

test('a sender that dies mid-send: its mail is sent by the next pass once the lease ends, not before', async () => {
  const [id] = await store.queueMail([mail('ann@example.com')]);
  await store.claimMail(now, 10, MAIL_LEASE_MS); // claimed by a process that then died
  expect(await sendQueuedMail(deps())).toBe(0);
  now += MAIL_LEASE_MS;
  expect(await sendQueuedMail(deps())).toBe(1);
  expect(await store.getMail(id!)).toMatchObject({ status: 'sent', attempts: 2 });
});

test('fromMailbox: the address alone without a name; the site\'s name beside the address, quotes kept, line breaks made spaces', () => {
  const service = { address: 'no-reply@mail.example' };
  expect(fromMailbox(service, undefined)).toEqual(service);
  expect(fromMailbox({ name: 'Service', address: 'no-reply@mail.example' }, 'Shop')).toEqual({ name: 'Shop', address: 'no-reply@mail.example' });
  expect(fromMailbox(service, 'The "Ledger", Café')).toEqual({ name: 'The "Ledger", Café', address: 'no-reply@mail.example' });
  expect(fromMailbox(service, 'Evil\r\nBcc: x@y')).toEqual({ name: 'Evil Bcc: x@y', address: 'no-reply@mail.example' });
  // The operator's own name, quotes and backslash and all, goes through as written.
  const named = { name: 'The "Best" \\ Service', address: 'no-reply@mail.example' };
  expect(fromMailbox(named, undefined)).toBe(named);
});

test('the From header a transport writes keeps quotes and a backslash in the operator\'s name and in a site\'s (no header text built and parsed back)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-from-'));
  try {
    const transport = createOutboxTransport({ kind: 'outbox', dir, source: 'process', from: { address: 'no-reply@mail.example' } });
    const operator = { name: 'The "Best" \\ Service', address: 'no-reply@mail.example' };
    await store.queueMail([mail('a@example.com'), mail('b@example.com', { fromName: 'Ledger "The", Café' })]);
    expect(await sendQueuedMail({ ...deps(), transport, from: operator })).toBe(2);
    const froms = await Promise.all((await listOutboxFiles(dir)).map(async (file) => (await simpleParser(readFileSync(join(dir, file)))).from?.value[0]));
    expect(froms.map((f) => [f?.name, f?.address]).sort()).toEqual([
      ['Ledger "The", Café', 'no-reply@mail.example'],
      ['The "Best" \\ Service', 'no-reply@mail.example'],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
