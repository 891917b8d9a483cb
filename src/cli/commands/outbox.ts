/**
 * `svc outbox [--follow]`: the mail the service wrote to its outbox directory (no SVC_SMTP_URL),
 * oldest first, each as a readable block with its links; `--follow` then waits for more.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { simpleParser } from 'mailparser';
import { findLinks, listOutboxFiles, MailConfigError, readMailConfig, type MailConfig } from '../../service/mail';
import { dbPath, UsageError } from '../config';
import type { Io } from '../io';

export const OUTBOX_USAGE = ['svc outbox [--follow] [--db PATH]   (mail on stdout; env SVC_OUTBOX_DIR, SVC_SMTP_URL)'];

const HELP = [
  'usage: svc outbox [--follow] [--db PATH]',
  'Prints the mail in the outbox directory (where mail goes without SVC_SMTP_URL), oldest first:',
  'on stdout, one block per message (Date, From, To, Subject, the text, then Links: one URL a',
  'line), blocks separated by a line of dashes. Notes ("no mail in DIR", where mail goes) go to',
  'stderr. --follow keeps printing new messages as they arrive until Ctrl-C (SIGINT) or SIGTERM.',
].join('\n');

const SEPARATOR = '-'.repeat(72);
const POLL_MS = 250;

export async function outboxCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { follow: { type: 'boolean' }, db: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.err(HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`outbox takes no arguments, got ${positionals[0]}`);
  const database = dbPath(values.db, env);
  const config = mailConfig(env, database);
  if (config.kind === 'smtp') {
    io.err(`mail goes to the SMTP server ${config.serverLabel} (SVC_SMTP_URL): the outbox holds nothing`);
    return 0;
  }
  if (config.source === 'process') {
    throw new UsageError(`an in-memory database (${database}) keeps its outbox in a directory of its own process: set SVC_OUTBOX_DIR for the service and for svc outbox`);
  }
  const printer = outboxPrinter(config.dir, io);
  const printed = await printer.printNew();
  if (!values.follow) {
    if (printed === 0) io.err(`no mail in ${config.dir}`);
    return 0;
  }
  io.err(`${printed === 0 ? `no mail in ${config.dir} yet; ` : ''}waiting for new mail in ${config.dir} (Ctrl-C to stop)`);
  await untilStopped(() => printer.printNew());
  return 0;
}

function mailConfig(env: NodeJS.ProcessEnv, database: string): MailConfig {
  try {
    return readMailConfig(env, database);
  } catch (error) {
    if (error instanceof MailConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** Prints each message of `dir` once, in file-name (time) order; `printNew` says how many it printed. */
function outboxPrinter(dir: string, io: Io) {
  const seen = new Set<string>();
  let blocks = 0;
  return {
    async printNew(): Promise<number> {
      let printed = 0;
      for (const name of await listOutboxFiles(dir)) {
        if (seen.has(name)) continue;
        seen.add(name);
        let block: string;
        try {
          block = await formatMail(await readFile(join(dir, name)));
        } catch (error) {
          io.err(`cannot read ${join(dir, name)}: ${(error as Error).message}`);
          continue;
        }
        io.out(blocks++ === 0 ? block : `${SEPARATOR}\n${block}`);
        printed++;
      }
      return printed;
    },
  };
}

/** One message as people read it, decoded by mailparser (headers, quoted-printable, base64, charsets). */
async function formatMail(bytes: Buffer): Promise<string> {
  const mail = await simpleParser(bytes);
  // `Name <address>` as people write it (mailparser's text quotes every name).
  const address = (value: typeof mail.from | typeof mail.to) =>
    value && (Array.isArray(value) ? value : [value]).flatMap((a) => a.value).map((v) => (v.name ? `${v.name} <${v.address}>` : v.address)).join(', ');
  const fields: [string, string | undefined][] = [
    // As written in the message (mailparser's Date would lose the sender's zone).
    ['Date', mail.headerLines.find((h) => h.key === 'date')?.line.replace(/^date:\s*/i, '')],
    ['From', address(mail.from)],
    ['To', address(mail.to)],
    ['Reply-To', address(mail.replyTo)],
    ['Subject', mail.subject],
  ];
  const lines = fields.flatMap(([name, value]) => (value === undefined ? [] : [`${name}: ${value}`]));
  const { text } = mail;
  const links = findLinks(text ?? '', mail.html === false ? undefined : mail.html);
  return [...lines, '', (text ?? '(no plain text)').trimEnd(), '', links.length > 0 ? 'Links:' : 'Links: none', ...links].join('\n');
}

/** Runs `check` every POLL_MS until SIGINT or SIGTERM. */
async function untilStopped(check: () => Promise<unknown>): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    while (!stop.signal.aborted) {
      try {
        await sleep(POLL_MS, undefined, { signal: stop.signal });
      } catch {
        break;
      }
      await check();
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
