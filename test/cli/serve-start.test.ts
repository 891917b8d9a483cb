/**
 * What `svc serve` loads to start on SQLite: not the packages only some installations use. The
 * PostgreSQL driver (a `postgres://` database), the Stripe SDK (a site paid through Stripe),
 * nodemailer (the first message), the site file's YAML and HTML sanitizer (`--demo`, `svc apply`)
 * and pino-pretty (a terminal) load when they are needed: together they were about a third of the
 * CPU a start took here (1.64–1.74 CPU-s, 1.08–1.34 without them). Each of them still loads where
 * it is used; their own suites (stores, payments, mail, the site file) run through them.
 *
 * The child is started with test/support/record-packages.mjs preloaded, which writes down every
 * file it loads from node_modules.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';
import { run, startServe } from '../support/svc-process';

const dir = mkdtempSync(join(tmpdir(), 'svc-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The files a `svc serve` on `db` loaded by the time it served. */
async function loadedToServe(db: string): Promise<string[]> {
  const record = join(dir, 'loaded.txt');
  const serve = await startServe(['--db', db], {
    SVC_SCRYPT: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_RECORD_PACKAGES: record,
    NODE_OPTIONS: `--import=${join(repoRoot, 'test/support/record-packages.mjs')}`,
  });
  await serve.stop();
  return readFileSync(record, 'utf8').trim().split('\n');
}

const packageOf = (file: string) => /^((?:@[^/]+\/)?[^/]+)\//.exec(file)![1]!;

test('svc serve on a SQLite file starts without the PostgreSQL driver, Stripe, nodemailer, YAML, the HTML sanitizer or pino-pretty', async () => {
  const db = join(dir, 'svc.db');
  await run(['sites', 'create', '--subdomain', 'shop', '--name', 'Shop', '--domain', 'shop.example', '--db', db], {});
  const loaded = await loadedToServe(db);
  // What it does load: the web server, the SQLite driver, the logger.
  expect(loaded.map(packageOf)).toEqual(expect.arrayContaining(['hono', 'better-sqlite3', 'pino']));
  const packages = new Set(loaded.map(packageOf));
  for (const name of ['pg', 'pg-copy-streams', 'stripe', 'yaml', 'sanitize-html', 'pino-pretty', 'sharp']) expect(packages, name).not.toContain(name);
  // nodemailer's address parser checks the sender's address (mail-address.ts); nodemailer itself waits for a message.
  expect(loaded.filter((file) => file.startsWith('nodemailer/') && !file.includes('/addressparser/'))).toEqual([]);
});
