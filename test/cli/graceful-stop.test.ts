/**
 * Issue 16: `svc serve` stops gracefully on SIGTERM, alone and with workers. A request under way
 * is answered as usual, new connections are refused meanwhile, an idle keep-alive connection is
 * closed, and the process exits 0.
 *
 * The request under way is a sign-up whose client is slow: it sends the headers with
 * `Expect: 100-continue`, and the server's `100 Continue` says the request has reached the
 * service. Its body follows only after the stop has begun and new connections are refused, so
 * the order is certain, and no hook in the service and no timer decides it.
 */
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { run, startServe } from '../support/svc-process';

const dir = mkdtempSync(join(tmpdir(), 'svc-graceful-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Answer {
  status: number;
  head: string;
  body: string;
}

/** A POST whose headers go now and whose body goes when `send()` is called. */
function slowPost(port: number, path: string, body: string) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let continued!: () => void;
  let answered!: (answer: Answer) => void;
  const continuing = new Promise<void>((resolve) => (continued = resolve));
  const answer = new Promise<Answer>((resolve) => (answered = resolve));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk) => {
    received += chunk.toString('utf8');
    if (received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
      received = received.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
      continued();
    }
    const end = received.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: (\d+)/i.exec(received.slice(0, end));
    if (end >= 0 && length && received.length >= end + 4 + Number(length[1])) {
      answered({ status: Number(received.slice(9, 12)), head: received.slice(0, end), body: received.slice(end + 4, end + 4 + Number(length[1])) });
    }
  });
  socket.write(
    [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`,
      'Expect: 100-continue', 'Connection: keep-alive', '', ''].join('\r\n'),
  );
  return { continuing, answer, closed, send: () => socket.write(body) };
}

/** A keep-alive connection that has had its answer and now sits idle. */
async function idleConnection(port: number): Promise<{ closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path: '/healthz', headers: { connection: 'keep-alive' }, agent: false }, (res) => {
      const socket = res.socket as Socket;
      const closed = new Promise<void>((done) => socket.once('close', () => done()));
      res.resume();
      res.once('end', () => resolve({ closed }));
    });
    req.once('error', reject);
    req.end();
  });
}

/** Tries new connections until one is refused: the server has stopped taking them. */
async function untilRefused(port: number): Promise<string> {
  for (;;) {
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve('accepted');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    // With workers, the primary may still take a connection its closing worker then drops
    // (ECONNRESET): the stop is under way, not done; try again until the port refuses.
    if (outcome !== 'accepted' && outcome !== 'ECONNRESET') return outcome;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each([1, 2])('svc serve --workers %i', (workers) => {
  test('SIGTERM: the request under way gets its answer, new connections are refused, idle ones closed, the store is closed after, exit 0', async () => {
    const db = join(dir, `workers-${workers}.db`);
    const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test' };
    await run(['sites', 'create', '--subdomain', 'shop', '--name', 'Shop', '--domain', 'shop.example'], env);
    const serve = await startServe(['--workers', String(workers)], env);
    const port = Number(new URL(serve.url).port);

    const idle = await idleConnection(port);
    const signUp = slowPost(port, '/member/v1/sites/shop/members', JSON.stringify({ email: 'late@shop.example', password: 'a long enough password' }));
    await signUp.continuing;

    const exited = serve.stop();
    expect(await untilRefused(port)).toBe('ECONNREFUSED');
    await idle.closed;
    signUp.send();
    const answer = await signUp.answer;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ token: expect.stringMatching(/^svc_session_/), memberInfo: { email: 'late@shop.example' } });
    // Answered, the connection is not kept alive for another request.
    expect(answer.head).toMatch(/\r\nconnection: close(\r\n|$)/i);
    await signUp.closed;
    expect(await exited).toBe(0);
    expect(serve.log.join('\n')).toMatch(/stopping: no new connections/);

    // What it answered was written before the store closed.
    const store = openSqliteStore(db);
    try {
      expect(await store.findMemberLogin(1, 'late@shop.example')).toMatchObject({ status: 'approved' });
    } finally {
      await store.close();
    }
  });
});

test('SVC_STOP_DELAY_MS: after SIGTERM, /readyz answers 503 for that long while the APIs still answer; then the stop as above', async () => {
  const db = join(dir, 'stop-delay.db');
  const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test', SVC_STOP_DELAY_MS: '1500' };
  await run(['sites', 'create', '--subdomain', 'shop', '--name', 'Shop', '--domain', 'shop.example'], env);
  const serve = await startServe([], env);
  const get = async (path: string) => {
    const res = await fetch(`${serve.url}${path}`, { headers: { connection: 'close' } });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  expect(await get('/readyz')).toEqual({ status: 200, body: { ready: true } });
  const exited = serve.stop();
  // Told at once, and still serving meanwhile: a load balancer takes the process out first.
  let ready = await get('/readyz');
  while (ready.status === 200) ready = await get('/readyz');
  expect(ready).toEqual({ status: 503, body: { ready: false } });
  expect(await get('/healthz')).toEqual({ status: 200, body: { ok: true, database: 'up' } });
  expect((await get('/member/v1/sites/shop/config')).status).toBe(200);
  expect(await exited).toBe(0);
});
