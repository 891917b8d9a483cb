/** The `svc` command: `svc <command> …`. Bad arguments exit 2 with the usage lines. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { repoRoot } from '../../scripts/lib/paths';
import { useSha256Hex } from '../service/crypto/digests';
import { ValidationError } from '../service/domain/validation';
import { nodeSha256Hex } from '../service/platform/node-digests';
import { ConflictError, SchemaVersionError } from '../service/store/errors';
import { billingCommand, BILLING_USAGE } from './commands/billing';
import { dbCommand, DB_USAGE } from './commands/db';
import { keysCommand, KEYS_USAGE } from './commands/keys';
import { migrateCommand, MIGRATE_USAGE } from './commands/migrate';
import { outboxCommand, OUTBOX_USAGE } from './commands/outbox';
import { seedCommand, SEED_USAGE } from './commands/seed';
import { serveCommand, SERVE_USAGE } from './commands/serve';
import { sitesCommand, SITES_USAGE } from './commands/sites';
import { UsageError } from './config';
import { processIo, type Io } from './io';

const COMMANDS: Record<string, (args: string[], env: NodeJS.ProcessEnv, io: Io) => Promise<number>> = {
  serve: serveCommand,
  seed: seedCommand,
  sites: sitesCommand,
  keys: keysCommand,
  billing: billingCommand,
  outbox: outboxCommand,
  migrate: migrateCommand,
  db: dbCommand,
};

/** This installation's version: package.json's. */
export const VERSION = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

export const USAGE = ['usage:', '  svc --version', ...[...SERVE_USAGE, ...SEED_USAGE, ...SITES_USAGE, ...KEYS_USAGE, ...BILLING_USAGE, ...OUTBOX_USAGE, ...MIGRATE_USAGE, ...DB_USAGE].map((l) => `  ${l}`)].join('\n');

// Every command runs under Node: keys and tokens hash through node:crypto (a third of the time).
useSha256Hex(nodeSha256Hex);

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = processIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.err(USAGE);
    return 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.out(`svc ${VERSION}`);
    return 0;
  }
  const command = name === undefined ? undefined : COMMANDS[name];
  try {
    if (!command) throw new UsageError(name === undefined ? 'no command given' : `unknown command ${name}`);
    return await command(args, env, io);
  } catch (error) {
    // parseArgs reports unknown or malformed options with these codes.
    const code = (error as { code?: string }).code ?? '';
    if (error instanceof UsageError || error instanceof ValidationError || code.startsWith('ERR_PARSE_ARGS')) {
      io.err((error as Error).message);
      io.err(USAGE);
      return 2;
    }
    if (error instanceof ConflictError) {
      io.err(error.message);
      return 1;
    }
    // The machine said no (a path that cannot hold the database, a port in use, a database
    // from a newer version): say what and where, without a stack trace.
    if (/^(E[A-Z]+|SQLITE_\w+)$/.test(code) || error instanceof SchemaVersionError || error instanceof pg.DatabaseError) {
      io.err(`cannot go on: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
}
