/** `npm start` (`svc serve --demo`) as a user runs it: a real process, a real port, the demo key on stdout; plain `svc serve` creates nothing. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, expect, test } from 'vitest';
import { listOutboxFiles } from '../../src/service/mail/outbox-files';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { CHILD_NODE_OPTIONS } from '../support/svc-process';

const dir = mkdtempSync(join(tmpdir(), 'svc-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(env: Record<string, string>, args: string[] = ['--demo']) {
  const child = spawn(process.execPath, [...CHILD_NODE_OPTIONS, 'bin/svc.js', 'serve', ...args], {
    env: { ...process.env, PORT: '0', SVC_DB: join(dir, 'svc.db'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const firstLine = new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).on('line', (l) => {
      stdout.push(l);
      resolve(l);
    }),
  );
  const stderr: string[] = [];
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderr.push(line);
      const match = /serving on (http:\/\/\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.once('close', (code) => reject(new Error(`svc serve exited with ${code}`)));
  });
  // 'close' comes after both pipes are drained, so stdout is complete by then.
  const stop = () => new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code));
    child.kill('SIGTERM');
  });
  return { url, firstLine, stdout, stderr, stop };
}

test('serve seeds an empty database, prints a working demo key once, and stops cleanly', async () => {
  const first = start({});
  const url = await first.url;
  const key = await first.firstLine;
  expect(key).toMatch(/^svc_admin_/);
  const sites = await fetch(`${url}/admin/v1/sites`, { headers: { authorization: `Bearer ${key}` } });
  expect(sites.status).toBe(200);
  const [site] = await sites.json();
  expect(site).toMatchObject({ subdomain: 'demo' });
  expect(site.metrics.activeMemberCount).toBeGreaterThan(100);
  const members = await fetch(`${url}/admin/v1/members`, { headers: { authorization: `Bearer ${key}` } });
  expect(await members.json()).toHaveLength(25);
  expect(await first.stop()).toBe(0);
  expect(first.stdout).toEqual([key]);
  // Shown once: stdout only, never again in a hint on stderr (logs keep stderr).
  expect(first.stderr.join('\n')).not.toContain(key);
  expect(first.stderr.join('\n')).toMatch(/demo member sign-in: ada@demo\.localhost/);

  // A second start keeps the data and prints no new key.
  const second = start({});
  const url2 = await second.url;
  const again = await fetch(`${url2}/admin/v1/sites`, { headers: { authorization: `Bearer ${key}` } });
  expect(again.status).toBe(200);
  expect(await second.stop()).toBe(0);
  expect(second.stdout).toEqual([]);
});

test('plain serve on a new database creates nothing anyone can sign in to, and says how to create a site', async () => {
  const db = join(dir, 'plain.db');
  const plain = start({ SVC_DB: db, SVC_SCRYPT: 'test' }, []);
  const url = await plain.url;
  const demoLogin = await fetch(`${url}/member/v1/sites/demo/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@demo.localhost', password: 'demo-password' }),
  });
  expect(demoLogin.status).toBe(404);
  expect(await plain.stop()).toBe(0);
  expect(plain.stdout).toEqual([]);
  const said = plain.stderr.join('\n');
  expect(said).toMatch(/no site yet/);
  expect(said).toMatch(/svc sites apply site\.yaml/);
  expect(said).not.toMatch(/demo-password|svc_admin_/);
  const store = openSqliteStore(db);
  try {
    expect(await store.listSites()).toEqual([]);
  } finally {
    await store.close();
  }
});

test('serve refuses a malformed SVC_ADMIN_RATE_LIMIT with exit 2', async () => {
  const bad = start({ SVC_ADMIN_RATE_LIMIT: 'lots' });
  await expect(bad.url).rejects.toThrow(/exited with 2/);
});

test('a port in use fails the start with a one-line reason, exit 1, and no key is lost', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = String((blocker.address() as AddressInfo).port);
  const db = join(dir, 'busy.db');
  const failed = start({ PORT: port, SVC_DB: db });
  await expect(failed.url).rejects.toThrow(/exited with 1/);
  expect(failed.stderr.join('\n')).toMatch(/cannot go on: .*EADDRINUSE/);
  expect(failed.stderr.join('\n')).not.toMatch(/\n\s+at /);
  expect(failed.stdout).toEqual([]);
  await new Promise((resolve) => blocker.close(resolve));

  // The database was seeded; the next start says how to make a key.
  const next = start({ SVC_DB: db });
  await next.url;
  expect(await next.stop()).toBe(0);
  expect(next.stderr.join('\n')).toMatch(/svc keys create --site SUBDOMAIN/);
});

test('serve hands out the built widget to any origin, with an ETag, and nothing outside examples/', async () => {
  const svc = start({ SVC_DB: join(dir, 'static.db'), SVC_SCRYPT: 'test' });
  const url = await svc.url;
  const script = await fetch(`${url}/scripts/widgets.js`, { headers: { origin: 'https://shop.example' } });
  expect(script.status).toBe(200);
  expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(script.headers.get('access-control-allow-origin')).toBe('*');
  expect(script.headers.get('cache-control')).toMatch(/max-age=\d+/);
  expect((await script.text()).length).toBeGreaterThan(100);
  const again = await fetch(`${url}/scripts/widgets.js`, { headers: { 'if-none-match': script.headers.get('etag')! } });
  expect(again.status).toBe(304);
  expect((await fetch(`${url}/scripts/widgets.mjs`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');

  for (const path of ['/scripts/widgets.d.ts', '/examples/..%2fpackage.json', '/examples/..%2f..%2fpackage.json', '/examples/%2e%2e%2fpackage.json']) {
    const response = await fetch(`${url}${path}`);
    expect(response.status, path).toBe(404);
    expect(await response.text(), path).not.toContain('"devDependencies"');
  }
  expect(svc.stderr.join('\n')).toMatch(/widget: +http:\/\/\S+\/scripts\/widgets\.js/);
  expect(await svc.stop()).toBe(0);
});

/** The demo site's id in a database `svc serve --demo` made (for queueing its mail from outside). */
async function queueFor(db: string, mails: { to: string; subject: string; text: string; fromName?: string }[]): Promise<number[]> {
  const store = openSqliteStore(db);
  try {
    const [site] = await store.listSites();
    return await store.queueMail(mails.map((m) => ({ ...m, siteId: site!.id, kind: 'test', createdAt: Date.now() })));
  } finally {
    await store.close();
  }
}

async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('serve sends what the store queued through SVC_SMTP_URL (a real SMTP server here), from the site\'s name at SVC_MAIL_FROM, and records it sent', async () => {
  const received: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: false, allowInsecureAuth: true, disabledCommands: ['STARTTLS'], logger: false,
    onAuth: (auth, _s, done) => (auth.username === 'svc' && auth.password === 's3cret' ? done(null, { user: 'svc' }) : done(new Error('no'))),
    onData: (stream, _s, done) => void simpleParser(stream).then((m) => (received.push(m), done()), done),
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const db = join(dir, 'smtp.db');
  const served = start({ SVC_DB: db, SVC_SMTP_URL: `smtp://svc:s3cret@127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, SVC_MAIL_FROM: 'Service <no-reply@mail.example>' });
  try {
    await served.url;
    // Said once the service is up (after "serving on").
    await until(() => (served.stderr.some((l) => l.includes('mail:')) ? true : undefined), 'the mail line');
    expect(served.stderr.join('\n')).toMatch(/mail: +through smtp:\/\/svc@127\.0\.0\.1:\d+/);
    expect(served.stderr.join('\n')).not.toContain('s3cret');
    const [id] = await queueFor(db, [{ to: 'ada@demo.localhost', subject: 'Reset your password', text: 'https://demo.localhost/?svcopen=/member/reset/x', fromName: 'Demo Academy' }]);
    // The demo's own notices (memberships ending within the week) go too: find ours.
    const mail = await until(() => received.find((m) => m.subject === 'Reset your password'), 'the mail at the SMTP server');
    expect([mail.subject, mail.from?.value[0], (mail.to as AddressObject).value[0]!.address, mail.text?.trim()]).toEqual([
      'Reset your password', { name: 'Demo Academy', address: 'no-reply@mail.example' }, 'ada@demo.localhost', 'https://demo.localhost/?svcopen=/member/reset/x',
    ]);
    const store = openSqliteStore(db);
    try {
      expect(await until(async () => ((await store.getMail(id!))?.status === 'sent' ? true : undefined), 'the mail recorded sent')).toBe(true);
    } finally {
      await store.close();
    }
  } finally {
    expect(await served.stop()).toBe(0);
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});

test('without SVC_SMTP_URL serve writes queued mail to the outbox beside the database, and says where', async () => {
  const db = join(dir, 'outbox.db');
  const served = start({ SVC_DB: db });
  try {
    await served.url;
    await until(() => (served.stderr.some((l) => l.includes('mail:')) ? true : undefined), 'the mail line');
    expect(served.stderr.join('\n')).toContain(`mail:       to the outbox ${join(dir, 'outbox')}`);
    await queueFor(db, [{ to: 'ada@demo.localhost', subject: 'Your sign-in code', text: 'Your code is 123456.' }]);
    // The demo's own notices (memberships ending within the week) are there too: find ours.
    const outbox = join(dir, 'outbox');
    const mail = await until(async () => {
      // The outbox's own listing: .eml files only. The .tmp file a mail is written to before its
      // rename is not one, and reading it while it is renamed failed this test now and then (ENOENT).
      for (const file of await listOutboxFiles(outbox)) {
        const parsed = await simpleParser(readFileSync(join(outbox, file)));
        if (parsed.subject === 'Your sign-in code') return parsed;
      }
      return undefined;
    }, 'our .eml in the outbox');
    expect([mail.subject, mail.text?.trim()]).toEqual(['Your sign-in code', 'Your code is 123456.']);
  } finally {
    expect(await served.stop()).toBe(0);
  }
});

test('serve refuses a malformed SVC_SMTP_URL with exit 2, naming the variable and never the password', async () => {
  const bad = start({ SVC_SMTP_URL: 'http://user:hunter2@mail.example' });
  await expect(bad.url).rejects.toThrow(/exited with 2/);
  expect(bad.stderr.join('\n')).toMatch(/SVC_SMTP_URL/);
  expect(bad.stderr.join('\n')).not.toContain('hunter2');
});
