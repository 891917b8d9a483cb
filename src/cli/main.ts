/** The `svc` command: `svc <command> …`. Bad arguments exit 2 with the usage lines. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/paths';
import { useSha256Hex } from '../service/crypto/digests';
import { ValidationError } from '../service/domain/validation';
import { nodeSha256Hex } from '../service/platform/node-digests';
import { ConflictError, SchemaVersionError } from '../service/store/errors';
import { UsageError } from './config';
import { processIo, type Io } from './io';

type Command = (args: string[], env: NodeJS.ProcessEnv, io: Io) => Promise<number>;

/**
 * Each command and its usage lines, imported when that command runs: `svc serve` does not load
 * the seeder, the site-file tools or the database copier, and a short command starts sooner.
 */
const COMMANDS: Record<string, () => Promise<{ run: Command; usage: string[] }>> = {
  serve: () => import('./commands/serve').then((m) => ({ run: m.serveCommand, usage: m.SERVE_USAGE })),
  seed: () => import('./commands/seed').then((m) => ({ run: m.seedCommand, usage: m.SEED_USAGE })),
  sites: () => import('./commands/sites').then((m) => ({ run: m.sitesCommand, usage: m.SITES_USAGE })),
  keys: () => import('./commands/keys').then((m) => ({ run: m.keysCommand, usage: m.KEYS_USAGE })),
  webhooks: () => import('./commands/webhooks').then((m) => ({ run: m.webhooksCommand, usage: m.WEBHOOKS_USAGE })),
  members: () => import('./commands/members').then((m) => ({ run: m.membersCommand, usage: m.MEMBERS_USAGE })),
  billing: () => import('./commands/billing').then((m) => ({ run: m.billingCommand, usage: m.BILLING_USAGE })),
  outbox: () => import('./commands/outbox').then((m) => ({ run: m.outboxCommand, usage: m.OUTBOX_USAGE })),
  migrate: () => import('./commands/migrate').then((m) => ({ run: m.migrateCommand, usage: m.MIGRATE_USAGE })),
  db: () => import('./commands/db').then((m) => ({ run: m.dbCommand, usage: m.DB_USAGE })),
};

/** This installation's version: package.json's. */
export const VERSION = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** Every command's usage lines (loading every command: for --help and bad arguments only). */
export async function usage(): Promise<string> {
  const commands = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  return ['usage:', '  svc --version', ...commands.flatMap((c) => c.usage).map((l) => `  ${l}`)].join('\n');
}

// Every command runs under Node: keys and tokens hash through node:crypto (a third of the time).
useSha256Hex(nodeSha256Hex);

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = processIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.err(await usage());
    return 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.out(`svc ${VERSION}`);
    return 0;
  }
  const load = name === undefined || !Object.hasOwn(COMMANDS, name) ? undefined : COMMANDS[name];
  try {
    if (!load) throw new UsageError(name === undefined ? 'no command given' : `unknown command ${name}`);
    return await (await load()).run(args, env, io);
  } catch (error) {
    // parseArgs reports unknown or malformed options with these codes.
    const code = (error as { code?: string }).code ?? '';
    if (error instanceof UsageError || error instanceof ValidationError || code.startsWith('ERR_PARSE_ARGS')) {
      io.err((error as Error).message);
      io.err(await usage());
      return 2;
    }
    if (error instanceof ConflictError) {
      io.err(error.message);
      return 1;
    }
    // The machine said no (a path that cannot hold the database, a port in use, a database
    // from a newer version): say what and where, without a stack trace.
    if (/^(E[A-Z]+|SQLITE_\w+)$/.test(code) || error instanceof SchemaVersionError || (await isPostgresError(error))) {
      io.err(`cannot go on: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
}

/** PostgreSQL's refusal (pg's DatabaseError); pg is loaded only here, on a failure, and was loaded already if the error is one. */
async function isPostgresError(error: unknown): Promise<boolean> {
  return error instanceof (await import('pg')).default.DatabaseError;
}
