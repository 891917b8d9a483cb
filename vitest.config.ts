import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // SQLite files and scrypt make some suites CPU-bound; two cores on CI.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
