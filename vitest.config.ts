import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Suites that run in a fresh process a file (vitest's isolation): any file that mocks a module, and
 * any that needs the globals as Node has them. The widget's suites are isolated too, in a thread a
 * file (the `widget` project).
 */
const ISOLATED = [
  'test/types/**',
  'test/unit/public-plan-id.test.ts',
  // Tests the platform's own Response: @hono/node-server, once any file of a worker loads it,
  // puts its own in the global scope.
  'test/unit/answer.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['scripts/test-global-setup.ts'],
    // SQLite files and scrypt make some suites CPU-bound; two cores on CI. The real-browser
    // suite (test/browser) starts Chromium and the service in its hooks.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Most test files wait more than they compute (on Chromium, a child service, PostgreSQL,
    // SMTP, timers), so the files run more at once than the machine has cores. vitest's default,
    // one fewer than the cores, ran one file at a time on two cores: 920 s of wall time for 745 s
    // of files. SVC_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.SVC_TEST_WORKERS) || availableParallelism() + 1,
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED.map((glob) => (glob.endsWith('.ts') ? glob : `${glob}/*.test.ts`)) },
      },
      {
        // The widget's suites hold a page's globals (happy-dom) and the widget's module state, so
        // each file gets a fresh module graph, in a worker thread of its own rather than a child
        // process: a process a file cost 97 CPU-s for the 42 files here, a thread 63–71 (and 58 s of
        // wall time against 39–44), the same 880 tests passing.
        extends: true,
        test: { name: 'widget', include: ['test/widget/**/*.test.ts'], pool: 'threads' },
      },
      {
        // The real browser's suites start Chromium and services in their hooks and mock nothing:
        // a worker keeps playwright and the service's modules from one file to the next.
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], isolate: false },
      },
      {
        // The service's suites (stores, member and Admin APIs, site file, mail, security, units)
        // build their apps and stores in their tests and mock nothing, so a worker keeps its
        // modules from one file to the next: importing the service anew for each of ~150 files
        // was 72 of their 134 s here (vitest's isolation), 18 s without. The CLI's and the
        // examples' suites are among them: they run `svc` in the test process or as children, each
        // with the environment the test gives it (`main(argv, env, io)`); a process a file cost
        // their 24 files ~15 CPU-s more (fork workers 49 → 28 CPU-s alone, the same 136 tests).
        extends: true,
        test: { name: 'service', include: ['test/**/*.test.ts'], exclude: [...ISOLATED, 'test/widget/**', 'test/browser/**'], isolate: false },
      },
    ],
  },
});
