/** `svc sites create --name`: a site name is one line of text, without control characters. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { main } from '../../src/cli/main';
import { openSqliteStore } from '../../src/service/store/sqlite';

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-cli-name-'));
  db = join(dir, 'svc.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function svc(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { SVC_DB: db }, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err: err.join('\n') };
}

async function siteCount(): Promise<number> {
  const store = openSqliteStore(db);
  try {
    return (await store.listSites()).length;
  } finally {
    await store.close();
  }
}

test('a site name with a control character or a lone surrogate exits 2, says why, and creates no site', async () => {
  for (const bad of ['\u0000', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f', '\ud800']) {
    const result = await svc('sites', 'create', '--subdomain', 'acme', '--name', `Ac${bad}me`);
    expect(result.code, JSON.stringify(bad)).toBe(2);
    expect(result.err).toMatch(/name: must not contain control characters|name: must be valid Unicode/);
    expect(result.out).toEqual([]);
  }
  expect(await siteCount()).toBe(0);
  // Letters of any script, and a surrogate pair, are a name.
  expect(await svc('sites', 'create', '--subdomain', 'acme', '--name', 'Ācme 大塚 😀')).toMatchObject({ code: 0, out: ['1'] });
});
