/**
 * Where mail goes, from the environment: an SMTP server (SVC_SMTP_URL), or else the outbox, a
 * directory of .eml files beside the database that `svc outbox` prints. Checked once at start;
 * a bad value is an error naming the variable, never showing the SMTP password.
 */
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseMailbox } from './mail-address';
import type { MailAddress } from './message';
import { describeSmtpServer, parseSmtpUrl, type SmtpServer } from './smtp-url';

export class MailConfigError extends Error {
  override readonly name = 'MailConfigError';
}

/** The sender when SVC_MAIL_FROM is unset. Fine for the outbox; SMTP servers usually want a real one. */
export const DEFAULT_MAIL_FROM = 'no-reply@localhost';

/** How long an SMTP server may keep a sender waiting, in ms; none holds one forever. */
export interface SmtpTimeouts {
  /** To open the TCP (or TLS) connection. */
  connection: number;
  /** From connected to the server's 220 greeting. */
  greeting: number;
  /** Silence on an open connection, mid-command or mid-message. */
  socket: number;
  /** To resolve the host name. */
  dns: number;
  /** The whole send, start to end: a server that answers, slowly, every time still ends here. */
  send: number;
}

/** `send` stays under the sender's lease on a claimed mail (MAIL_LEASE_MS, 2 minutes). */
export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connection: 10_000, greeting: 10_000, socket: 60_000, dns: 10_000, send: 90_000 };

export interface SmtpMailConfig {
  kind: 'smtp';
  server: SmtpServer;
  /** The server without its password: what messages may show. */
  serverLabel: string;
  from: MailAddress;
  timeouts: SmtpTimeouts;
}

/** Where the outbox directory came from: the variable, beside the database file, or per process. */
export type OutboxSource = 'SVC_OUTBOX_DIR' | 'database' | 'process';

export interface OutboxMailConfig {
  kind: 'outbox';
  dir: string;
  source: OutboxSource;
  from: MailAddress;
}

export type MailConfig = SmtpMailConfig | OutboxMailConfig;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The mail settings of `env` for the database `database` (a path, `:memory:`, a `file:` URI, as
 * the CLI's dbPath gives it). Without SVC_SMTP_URL the outbox is, in this order: SVC_OUTBOX_DIR;
 * `outbox/` beside a database file; for an in-memory database `svc-outbox-<pid>` under the
 * system's temporary directory (a database that lives in one process keeps its mail there too).
 */
export function readMailConfig(env: Env, database: string): MailConfig {
  const from = readFrom(env.SVC_MAIL_FROM);
  const smtpUrl = env.SVC_SMTP_URL?.trim();
  if (smtpUrl) {
    const server = parseSmtpUrl(smtpUrl);
    if ('problem' in server) throw new MailConfigError(`SVC_SMTP_URL ${server.problem}`);
    return { kind: 'smtp', server, serverLabel: describeSmtpServer(server), from, timeouts: DEFAULT_SMTP_TIMEOUTS };
  }
  const outboxDir = env.SVC_OUTBOX_DIR?.trim();
  if (outboxDir) return { kind: 'outbox', dir: resolve(outboxDir), source: 'SVC_OUTBOX_DIR', from };
  const file = databaseFile(database);
  if (file === 'memory') return { kind: 'outbox', dir: join(tmpdir(), `svc-outbox-${process.pid}`), source: 'process', from };
  if (file === undefined) {
    throw new MailConfigError('SVC_OUTBOX_DIR must be set for a database that is not a file (or set SVC_SMTP_URL to send mail)');
  }
  return { kind: 'outbox', dir: resolve(dirname(file), 'outbox'), source: 'database', from };
}

function readFrom(text: string | undefined): MailAddress {
  if (text === undefined || text.trim() === '') return { address: DEFAULT_MAIL_FROM };
  const mailbox = parseMailbox(text);
  if ('problem' in mailbox) {
    throw new MailConfigError(`SVC_MAIL_FROM must be one address, "Name <addr@host>" or addr@host, but it ${mailbox.problem}: ${JSON.stringify(text)}`);
  }
  return mailbox;
}

/** The file of a SQLite database name, 'memory' for one with none, undefined for a server URL. */
function databaseFile(database: string): string | 'memory' | undefined {
  if (database === '' || database === ':memory:') return 'memory';
  if (database.startsWith('file:')) {
    const [path = '', query = ''] = database.slice('file:'.length).split('?');
    if (path === '' || path === ':memory:' || new URLSearchParams(query).get('mode') === 'memory') return 'memory';
    // file:///abs/path and file:rel/path alike.
    const local = path.replace(/^\/\/[^/]*/, '');
    try {
      return decodeURIComponent(local);
    } catch {
      return local;
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(database)) return undefined;
  return database;
}
