/**
 * `svc serve`'s logs (issue 30): pino's JSON lines on stderr when it is no terminal, one access
 * line a request with the id the answer carries as X-Request-Id, at SVC_LOG_LEVEL; and never a
 * password, session token, Admin API key or mailed link's token, whatever the requests carried.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runSvc } from '../support/svc-main';
import { run, startServe } from '../support/svc-process';

const dir = mkdtempSync(join(tmpdir(), 'svc-logs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PASSWORD = 'a-password-nobody-logs';
const LINK_TOKEN = 'mailed-link-token-7f3a9c';

async function shop(name: string) {
  const env = { SVC_DB: join(dir, `${name}.db`), PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test' };
  await run(['sites', 'create', '--subdomain', 'shop', '--name', 'Shop', '--domain', 'shop.example'], env);
  const key = (await runSvc(['keys', 'create', '--site', 'shop', '--scopes', 'read.members'], env)).out[0]!;
  return { env, key };
}

/** The JSON lines of the log, parsed; the others (the command's announcements) left out. */
const jsonLines = (log: string[]) => log.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);

test('JSON access lines with the X-Request-Id each answer carries; no secret of the requests in the log', async () => {
  const { env, key } = await shop('info');
  const serve = await startServe([], env);
  const ids: string[] = [];
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${serve.url}${path}`, { ...init, headers: { origin: 'https://shop.example', 'content-type': 'application/json', ...init.headers } });
    ids.push(res.headers.get('x-request-id')!);
    return res;
  };
  let token: string;
  try {
    const signUp = await call('/member/v1/sites/shop/members', { method: 'POST', body: JSON.stringify({ email: 'logs@shop.example', password: PASSWORD }) });
    expect(signUp.status).toBe(201);
    token = ((await signUp.json()) as { token: string }).token;
    expect((await call('/member/v1/sites/shop/me', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await call('/member/v1/sites/shop/sessions', { method: 'POST', body: JSON.stringify({ email: 'logs@shop.example', password: 'wrong-password-here' }) })).status).toBe(401);
    expect((await call('/admin/v1/members', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await call(`/examples/?svcopen=/member/sign_in/${LINK_TOKEN}`);
  } finally {
    expect(await serve.stop()).toBe(0);
  }
  const access = jsonLines(serve.log).filter((line) => line.msg === 'request');
  expect(access.map((line) => line.reqId)).toEqual(ids);
  expect(access[0]).toMatchObject({ level: 30, method: 'POST', path: '/member/v1/sites/shop/members', status: 201, ms: expect.any(Number) });
  expect(access.at(-1)).toMatchObject({ method: 'GET', path: '/examples/' });
  const whole = serve.log.join('\n');
  for (const secret of [PASSWORD, 'wrong-password-here', token!, key, LINK_TOKEN]) expect(whole.includes(secret), secret).toBe(false);
});

test('SVC_LOG_LEVEL=warn leaves the access lines out; a level pino does not have is a usage error (exit 2)', async () => {
  const { env } = await shop('warn');
  const serve = await startServe([], { ...env, SVC_LOG_LEVEL: 'warn' });
  try {
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
  } finally {
    expect(await serve.stop()).toBe(0);
  }
  expect(jsonLines(serve.log).filter((line) => line.msg === 'request')).toEqual([]);
  expect(serve.log.join('\n')).toMatch(/serving on/);
  await expect(startServe([], { ...env, SVC_LOG_LEVEL: 'loud' })).rejects.toThrow(/exited with 2[\s\S]*SVC_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got loud/);
});
