import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['scripts/test-global-setup.ts'],
    // SQLite files and scrypt make some suites CPU-bound; two cores on CI. The real-browser
    // suite (test/browser) starts Chromium and the service in its hooks.
    testTimeout: 30_000,
    // Most test files wait more than they compute (on Chromium, a child service, PostgreSQL,
    // SMTP, timers), so the files run more at once than the machine has cores. vitest's default,
    // one fewer than the cores, ran one file at a time on two cores: 920 s of wall time for 745 s
    // of files. SVC_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.SVC_TEST_WORKERS) || availableParallelism() + 1,
    hookTimeout: 60_000,
  },
});
