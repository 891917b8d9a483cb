/**
 * The CLI's suites share a worker with the service's (vitest.config.ts), and a `svc` command run
 * in the test process (test/support/svc-main.ts) may hand the service's log to pino, as `svc
 * serve`'s settings do for their process. The suites after it read the log where it was: the
 * console, by default (src/service/diagnostics.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test, vi } from 'vitest';
import { log } from '../../src/service/diagnostics';
import { runSvc } from '../support/svc-main';

const dir = mkdtempSync(join(tmpdir(), 'svc-in-process-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('after `svc serve` ran in the test process, the service logs to the console again', async () => {
  // A serve that stops after its settings made its logger: its database cannot be made (a file
  // stands where its directory would).
  writeFileSync(join(dir, 'a-file'), '');
  const run = await runSvc(['serve', '--db', join(dir, 'a-file', 'svc.db')], { PORT: '0', SVC_SCRYPT: 'test' });
  expect(run.code).not.toBe(0);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    log.error('a fault, for the operator');
    expect(logged.mock.calls.map(([line]) => String(line))).toEqual(['[svc] a fault, for the operator']);
  } finally {
    logged.mockRestore();
  }
});
