import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['scripts/test-global-setup.ts'],
    // SQLite files and scrypt make some suites CPU-bound; two cores on CI. The real-browser
    // suite (test/browser) starts Chromium and the service in its hooks.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
