/**
 * vitest globalSetup: builds dist/ (the widget and the mock server bundle) once, before any
 * suite, when it is missing or stale. The type tests, the real-browser suite and every
 * `svc serve` a test starts read it; building here keeps them from each starting the same
 * build at once.
 *
 * It also gives the PostgreSQL suites their server (test/support/postgres.ts): the one
 * SVC_TEST_POSTGRES_URL names, or else a throwaway cluster started here and stopped at the end.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureBuild } from './lib/ensure-build';
import { ALL_BUILD_PARTS } from './lib/paths';
import { postgresBinDir, startTempCluster, type TempCluster } from './lib/postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL server the suites use; '' when there is none (they skip, or fail under CI=true). */
    postgresUrl: string;
  }
}

let cluster: TempCluster | undefined;

export default async function setup(project: TestProject): Promise<() => void> {
  // The build is a child process: PostgreSQL's throwaway cluster (initdb, 2-3 s) starts meanwhile.
  const built = ensureBuild(ALL_BUILD_PARTS);
  const postgresUrl = await postgresServer();
  if ((await built) === 'failed') console.warn('[test] the build failed: the suites that load dist/ will fail');
  project.provide('postgresUrl', postgresUrl);
  return async () => {
    if (cluster) cluster.stop();
    else if (postgresUrl) await dropTestSchemas(postgresUrl);
  };
}

/** The schemas the suites made (test/support/postgres.ts: `t_<pid>_<random>`) on a server they were given. */
async function dropTestSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace WHERE nspname ~ '^t_[0-9]+_[0-9a-f]+$'`);
    for (const { name } of rows) await client.query(`DROP SCHEMA ${name} CASCADE`);
  } catch (error) {
    console.warn(`[test] could not drop the test schemas: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function postgresServer(): Promise<string> {
  const given = process.env.SVC_TEST_POSTGRES_URL;
  if (given) return given;
  const ci = process.env.CI === 'true';
  if (!postgresBinDir()) {
    // One line, once; under CI=true each PostgreSQL suite fails with the same words instead.
    if (!ci) console.warn('[test] PostgreSQL suites skipped: no server here. Install Debian\'s postgresql (apt-get install postgresql) or set SVC_TEST_POSTGRES_URL=postgres://… to run them.');
    return '';
  }
  try {
    cluster = await startTempCluster({ database: 'svc_test' });
    // Through the Unix socket: the suites make hundreds of thousands of round trips.
    return cluster.socketUrl;
  } catch (error) {
    console.warn(`[test] PostgreSQL suites ${ci ? 'fail' : 'skipped'}: the throwaway server did not start: ${(error as Error).message}`);
    return '';
  }
}
