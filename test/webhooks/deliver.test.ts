/**
 * One delivery attempt against real receivers on 127.0.0.1 (allowPrivate, as in local
 * development): how each kind of answer, silence and failure is recorded.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { ANSWER_CHARS, DELIVERY_TIMEOUT_MS, type DeliveryRequest, deliverWebhook, MAX_ANSWER_BYTES, newWebhookSecret, webhookHeaders } from '../../src/service/webhooks';
import { closedPort, type Receiver, startReceiver } from './receiver';

let receiver: Receiver;
let target: Receiver;
const body = '{"type":"member.updated","data":{"id":"mem_1"}}';
const secret = newWebhookSecret();
const headers = () => webhookHeaders({ id: 'msg_1', timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] });
const deliver = (request: Partial<DeliveryRequest> = {}) => deliverWebhook({ url: `${receiver.url}/hook`, allowPrivate: true, headers: headers(), body, ...request });

beforeAll(async () => {
  [receiver, target] = await Promise.all([startReceiver(), startReceiver()]);
});
afterAll(() => Promise.all([receiver.close(), target.close()]));
beforeEach(() => {
  for (const r of [receiver, target]) {
    r.received.length = 0;
    r.connections = 0;
    r.answer = undefined;
    r.secret = secret;
  }
});
afterEach(() => {
  vi.useRealTimers();
});

test('a 2xx is a success, with its status, the time taken and the answer', async () => {
  receiver.answer = (response) => response.writeHead(202, { 'content-type': 'text/plain' }).end('queued, thanks');
  const result = await deliver();
  expect(result).toEqual({ ok: true, status: 202, durationMs: expect.any(Number), answer: 'queued, thanks', cut: false });
  expect(result.durationMs).toBeGreaterThanOrEqual(0);
  expect(result.durationMs).toBeLessThan(DELIVERY_TIMEOUT_MS);
  expect(receiver.received[0]!.verified).toBe(true);
});

test('a 500 is a failure with its status and answer, and no other error', async () => {
  receiver.answer = (response) => response.writeHead(500).end('database is down');
  expect(await deliver()).toEqual({ ok: false, status: 500, durationMs: expect.any(Number), answer: 'database is down', cut: false });
});

test.each([300, 404, 410, 429])('a %i is not a success', async (status) => {
  receiver.answer = (response) => response.writeHead(status).end();
  expect(await deliver()).toMatchObject({ ok: false, status });
});

test('a 302 is a failed attempt and is not followed: the redirect target gets nothing', async () => {
  receiver.answer = (response) => response.writeHead(302, { location: `${target.url}/elsewhere` }).end();
  const result = await deliver();
  expect(result).toMatchObject({ ok: false, status: 302, error: 'redirect' });
  expect(result.detail).toMatch(/not followed/);
  // Give a follow, had there been one, the time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(receiver.received).toHaveLength(1);
  expect(target.connections).toBe(0);
  expect(target.received).toEqual([]);
});

test('a receiver that never answers is cut at the timeout', async () => {
  receiver.answer = () => {};
  const result = await deliver({ timeoutMs: 300 });
  expect(result).toMatchObject({ ok: false, error: 'timeout', answer: '', cut: false });
  expect(result.status).toBeUndefined();
  expect(result.durationMs).toBeGreaterThanOrEqual(290);
  expect(result.durationMs).toBeLessThan(2000);
  expect(receiver.received).toHaveLength(1);
});

test('a receiver that sends its status and then stalls is cut at the timeout, keeping the status', async () => {
  receiver.answer = (response) => {
    response.writeHead(200);
    response.write('working on it');
  };
  expect(await deliver({ timeoutMs: 300 })).toMatchObject({ ok: false, status: 200, error: 'timeout', answer: 'working on it' });
});

test('the timeout is 10 s unless told otherwise: one millisecond short, still waiting', async () => {
  expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
  let arrived = () => {};
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  receiver.answer = () => arrived();
  // Only the attempt's own timer is faked; the sockets keep node's internal ones.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let settled = false;
  const attempt = deliver().then((result) => {
    settled = true;
    return result;
  });
  await arrival;
  await vi.advanceTimersByTimeAsync(DELIVERY_TIMEOUT_MS - 1);
  expect(settled).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(await attempt).toMatchObject({ ok: false, error: 'timeout', detail: 'no complete answer within 10000 ms' });
});

test('a 200 KB answer is cut at 64 KB: a success, with the first 1024 characters kept', async () => {
  receiver.answer = (response) => {
    response.on('error', () => {});
    response.writeHead(200, { 'content-type': 'text/plain' }).end('a'.repeat(ANSWER_CHARS) + 'b'.repeat(200 * 1024));
  };
  const result = await deliver();
  expect(MAX_ANSWER_BYTES).toBe(65_536);
  expect(result).toEqual({ ok: true, status: 200, durationMs: expect.any(Number), cut: true, answer: 'a'.repeat(ANSWER_CHARS) });
});

test('an answer that never ends is cut once past the limit, without waiting for its end', async () => {
  receiver.answer = (response) => {
    response.on('error', () => {});
    response.writeHead(200);
    response.write('c'.repeat(MAX_ANSWER_BYTES + 1));
  };
  const result = await deliver({ timeoutMs: 5000 });
  expect(result).toMatchObject({ ok: true, status: 200, cut: true, answer: 'c'.repeat(ANSWER_CHARS) });
  expect(result.durationMs).toBeLessThan(5000);
});

test('an answer of exactly the limit is read whole; one byte more is cut', async () => {
  receiver.answer = (response) => response.writeHead(200).end('x'.repeat(100));
  expect(await deliver({ maxAnswerBytes: 100 })).toMatchObject({ ok: true, cut: false, answer: 'x'.repeat(100) });
  expect(await deliver({ maxAnswerBytes: 99 })).toMatchObject({ ok: true, cut: true, answer: 'x'.repeat(99) });
});

test('the answer is kept as UTF-8 text, never ending in half a character', async () => {
  receiver.answer = (response) => response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(`${'é'.repeat(1023)}😀 and more`);
  const { answer } = await deliver();
  expect(answer).toBe('é'.repeat(1023));
  receiver.answer = (response) => response.writeHead(400).end('Bad signature: ü');
  expect((await deliver()).answer).toBe('Bad signature: ü');
});

test('a connection refused is a connection error', async () => {
  const port = await closedPort();
  const result = await deliver({ url: `http://127.0.0.1:${port}/hook` });
  expect(result).toMatchObject({ ok: false, error: 'connection', detail: 'ECONNREFUSED', answer: '', cut: false });
  expect(result.status).toBeUndefined();
});

test('a receiver that drops the connection mid-answer is a connection error, with what came', async () => {
  receiver.answer = (response) => {
    response.writeHead(200, { 'content-length': '1000' });
    response.write('partial', () => response.socket?.destroy());
  };
  expect(await deliver()).toMatchObject({ ok: false, status: 200, error: 'connection', answer: 'partial' });
});

test('a name that does not resolve is a connection error, said before any socket', async () => {
  const lookup = async (hostname: string) => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  expect(await deliver({ url: 'https://nowhere.invalid/hook', allowPrivate: false, lookup })).toMatchObject({ ok: false, error: 'connection', detail: 'ENOTFOUND' });
});

test('a URL that is no URL is a failed attempt, not a throw', async () => {
  expect(await deliver({ url: 'not a url' })).toMatchObject({ ok: false, error: 'badUrl', detail: 'the URL is not a URL', answer: '', cut: false });
});

test('headers node cannot send are the caller\'s mistake, thrown at once, and nothing is sent', async () => {
  await expect(deliver({ headers: { ...headers(), 'x-note': 'one\r\nx-injected: two' } })).rejects.toMatchObject({ code: 'ERR_INVALID_CHAR' });
  expect(receiver.connections).toBe(0);
});
