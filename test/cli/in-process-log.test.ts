/**
 * The CLI's suites share a worker with the service's (vitest.config.ts), and a `svc` command run
 * in the test process (test/support/svc-main.ts) may hand the service's log to pino, as `svc
 * serve`'s settings do for their process; so does a service the browser suites' support starts in
 * the worker (test/security/signup-limits.test.ts uses it here). The suites after them read the
 * log where it was: the console, by default (src/service/diagnostics.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test, vi } from 'vitest';
import { log } from '../../src/service/diagnostics';
import { startService } from '../browser/support/service';
import { runSvc } from '../support/svc-main';

const dir = mkdtempSync(join(tmpdir(), 'svc-in-process-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `log.error` writes to the console, caught. */
function consoleLines(): string[] {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    log.error('a fault, for the operator');
    return logged.mock.calls.map(([line]) => String(line));
  } finally {
    logged.mockRestore();
  }
}

test('after `svc serve` ran in the test process, the service logs to the console again', async () => {
  // A serve that stops after its settings made its logger: its database cannot be made (a file
  // stands where its directory would).
  writeFileSync(join(dir, 'a-file'), '');
  const run = await runSvc(['serve', '--db', join(dir, 'a-file', 'svc.db')], { PORT: '0', SVC_SCRYPT: 'test' });
  expect(run.code).not.toBe(0);
  expect(consoleLines()).toEqual(['[svc] a fault, for the operator']);
});

test('after a service started in the worker stops, the service logs to the console again', async () => {
  const service = await startService({ tempPrefix: 'svc-in-process-log-' });
  await service.stop();
  expect(consoleLines()).toEqual(['[svc] a fault, for the operator']);
});
