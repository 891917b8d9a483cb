/**
 * Issue 31's proofs with `svc serve` as an operator runs it (a child process) and a real receiver
 * on 127.0.0.1 that verifies every delivery with the `standardwebhooks` package:
 * - `kill -9` between the changes and their delivery: delivered after the restart, once per
 *   `webhook-id` (SQLite and PostgreSQL);
 * - `svc serve --workers 2` and a second `svc serve` on one PostgreSQL database: each event
 *   delivered once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { describePostgres, newPostgresSchema } from '../support/postgres';
import { runSvc } from '../support/svc-main';
import { run, startServe, type ServeProcess } from '../support/svc-process';
import { closedPort, type Receiver, startReceiver } from '../webhooks/receiver';

const SUBDOMAIN = 'hooks';
const ORIGIN = 'http://hooks.example';

function serveEnv(database: string, dir: string): Record<string, string> {
  return {
    SVC_DB: database,
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_SCRYPT: 'test',
    SVC_SIGNUP_RATE_LIMIT: 'off',
    SVC_OUTBOX_DIR: join(dir, 'outbox'),
    SVC_LOG_LEVEL: 'warn',
  };
}

/** `svc sites create` and `svc webhooks add` for `url`; answers the secret it printed. */
async function siteWithEndpoint(database: string, env: Record<string, string>, url: string): Promise<string> {
  await run(['sites', 'create', '--subdomain', SUBDOMAIN, '--name', 'Hooks', '--domain', 'hooks.example', '--db', database], env);
  const added = await runSvc(['webhooks', 'add', '--site', SUBDOMAIN, '--url', url, '--events', 'member.created', '--allow-private', '--db', database], { ...process.env, ...env });
  expect(added.code, added.err).toBe(0);
  return added.out[0]!;
}

async function signUp(serve: ServeProcess, email: string): Promise<void> {
  const res = await fetch(`${serve.url}/member/v1/sites/${SUBDOMAIN}/members`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a good password', firstName: 'Hook' }),
  });
  expect(res.status, await res.text()).toBe(201);
}

/** Waits until the receiver has verified deliveries of `count` distinct webhook-ids, then one more sender pass or two. */
async function deliveriesOf(receiver: Receiver, count: number, logs: () => string[]): Promise<Map<string, number>> {
  const ids = () => new Set(receiver.received.filter((r) => r.verified).map((r) => r.headers['webhook-id']!));
  // A delivery claimed when the process died waits for its claim to end (a minute) before another takes it.
  const deadline = Date.now() + 90_000;
  while (ids().size < count) {
    if (Date.now() > deadline) throw new Error(`${ids().size} of ${count} delivered:\n${logs().join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const times = new Map<string, number>();
  for (const r of receiver.received) times.set(r.headers['webhook-id']!, (times.get(r.headers['webhook-id']!) ?? 0) + 1);
  return times;
}

async function killBeforeDelivery(database: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-webhooks-kill-'));
  const env = serveEnv(database, dir);
  // Nothing listens at the endpoint yet: an attempt made before the kill fails (and is retried).
  const port = await closedPort();
  const secret = await siteWithEndpoint(database, env, `http://127.0.0.1:${port}/in`);
  let serve: ServeProcess | undefined;
  let receiver: Receiver | undefined;
  const logs: string[] = [];
  try {
    serve = await startServe(['--db', database], env);
    const emails = ['one@hooks.example', 'two@hooks.example', 'three@hooks.example'];
    for (const email of emails) await signUp(serve, email);
    // Acknowledged, then gone before anything was delivered.
    await serve.kill();
    logs.push(...serve.log);
    receiver = await startReceiver(port);
    receiver.secret = secret;
    serve = await startServe(['--db', database], env);
    const times = await deliveriesOf(receiver, 3, () => [...logs, ...serve!.log]);
    expect([...times.values()]).toEqual([1, 1, 1]);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(receiver.received.map((r) => JSON.parse(r.body).data.member.email).sort()).toEqual([...emails].sort());
  } finally {
    await serve?.kill();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('SQLite: kill -9 between sign-ups and their webhooks: delivered after the restart, once per webhook-id', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-webhooks-db-'));
  try {
    await killBeforeDelivery(join(dir, 'svc.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 150_000);

describePostgres('PostgreSQL', () => {
  test('kill -9 between sign-ups and their webhooks: delivered after the restart, once per webhook-id', async () => {
    const schema = await newPostgresSchema();
    try {
      await killBeforeDelivery(schema.url);
    } finally {
      await schema.drop();
    }
  }, 150_000);

  test('svc serve --workers 2 and a second svc serve on one database deliver each event once', async () => {
    const schema = await newPostgresSchema();
    const dir = mkdtempSync(join(tmpdir(), 'svc-webhooks-two-'));
    const env = serveEnv(schema.url, dir);
    const receiver = await startReceiver();
    const serves: ServeProcess[] = [];
    try {
      receiver.secret = await siteWithEndpoint(schema.url, env, `${receiver.url}/in`);
      serves.push(await startServe(['--db', schema.url, '--workers', '2'], env), await startServe(['--db', schema.url], env));
      const count = 20;
      await Promise.all(Array.from({ length: count }, (_, i) => signUp(serves[i % 2]!, `member${i}@hooks.example`)));
      const times = await deliveriesOf(receiver, count, () => serves.flatMap((s) => s.log));
      expect(times.size).toBe(count);
      expect([...times.values()].every((n) => n === 1), JSON.stringify([...times])).toBe(true);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
    } finally {
      for (const serve of serves) await serve.kill();
      await receiver.close();
      await schema.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
