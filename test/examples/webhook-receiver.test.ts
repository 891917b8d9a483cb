/**
 * examples/webhooks/receiver.ts as a site owner runs it: a real `svc serve` on a SQLite file, an
 * endpoint added with `svc webhooks add --allow-private`, the receiver as a child process with
 * the secret it printed. A sign-up is printed once; a replay (the same webhook-id) is answered
 * and not printed again; a delivery signed with another secret is refused.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, test } from 'vitest';
import { freePort } from '../../scripts/lib/postgres-cluster';
import { repoRoot } from '../../scripts/lib/paths';
import { deliverWebhook, newWebhookSecret, webhookHeaders } from '../../src/service/webhooks';
import { runSvc } from '../support/svc-main';
import { CHILD_NODE_OPTIONS, startServe, type ServeProcess } from '../support/svc-process';

const dir = mkdtempSync(join(tmpdir(), 'svc-receiver-example-'));
const db = join(dir, 'svc.db');
const children: ChildProcess[] = [];
let serve: ServeProcess | undefined;
afterAll(async () => {
  for (const child of children) child.kill();
  await serve?.kill();
  rmSync(dir, { recursive: true, force: true });
});

async function svc(...args: string[]): Promise<string[]> {
  const run = await runSvc([...args, '--db', db], { ...process.env, SVC_SCRYPT: 'test' });
  if (run.code !== 0) throw new Error(`svc ${args.join(' ')}: ${run.err}`);
  return run.out;
}

/** The receiver as a child; resolves once it listens, with its stdout and stderr lines. */
async function startReceiver(port: number, secret: string): Promise<{ out: string[]; err: string[] }> {
  const { SVC_WEBHOOK_SECRET: _, ...inherited } = process.env;
  const child = spawn(process.execPath, [...CHILD_NODE_OPTIONS, '--import', 'tsx', join(repoRoot, 'examples/webhooks/receiver.ts')], {
    cwd: repoRoot,
    env: { ...inherited, PORT: String(port), SVC_WEBHOOK_SECRET: secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out: string[] = [];
  const err: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => out.push(line));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      err.push(line);
      if (line.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the receiver exited with ${code}: ${err.join('\n')}`)));
  });
  return { out, err };
}

const until = async (done: () => boolean | Promise<boolean>, what: string) => {
  const deadline = Date.now() + 15_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

test('the example receiver prints a sign-up once, answers a replay without printing it again, and refuses a forged delivery', async () => {
  await svc('sites', 'create', '--subdomain', 'hooks', '--domain', 'hooks.example');
  const port = await freePort();
  const [secret] = await svc('webhooks', 'add', '--site', 'hooks', '--url', `http://127.0.0.1:${port}/hooks`, '--events', 'member.created', '--allow-private');
  const receiver = await startReceiver(port, secret!);
  serve = await startServe(['--db', db], { PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test', SVC_OUTBOX_DIR: join(dir, 'outbox'), SVC_LOG_LEVEL: 'warn' });

  const signUp = await fetch(`${serve.url}/member/v1/sites/hooks/members`, {
    method: 'POST',
    headers: { origin: 'http://hooks.example', 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@hooks.example', password: 'a good password', firstName: 'Ada' }),
  });
  expect(signUp.status).toBe(201);
  await until(() => receiver.out.length > 0, 'the sign-up');
  expect(receiver.out).toEqual([expect.stringMatching(/^\S+ member\.created msg_\w+ member \d+ <ada@hooks\.example>$/)]);

  // Sent again with the same webhook-id: answered (the delivery succeeds), not printed twice.
  expect(await svc('webhooks', 'replay', '--site', 'hooks', '1')).toEqual(['2']);
  const replayed = async () => /^2\t.*\tsucceeded\t/.test((await svc('webhooks', 'deliveries', '--site', 'hooks', '--limit', '1'))[0] ?? '');
  await until(replayed, 'the replay to succeed');
  expect(receiver.out).toHaveLength(1);

  // Signed with a secret that is not the endpoint's: refused, nothing printed.
  const body = '{"type":"member.created","timestamp":"2026-11-28T00:00:00.000Z","data":{}}';
  const forged = await deliverWebhook({
    url: `http://127.0.0.1:${port}/hooks`, allowPrivate: true, body,
    headers: webhookHeaders({ id: 'msg_forged', timestamp: Math.floor(Date.now() / 1000), body, secrets: [newWebhookSecret()] }),
  });
  expect(forged).toMatchObject({ ok: false, status: 400 });
  // Its stderr line comes through a pipe this process reads in its own time, maybe after the answer.
  await until(() => receiver.err.some((line) => line.startsWith('receiver: refused a delivery')), 'the refusal to be logged');
  expect(receiver.out).toHaveLength(1);
}, 60_000);
