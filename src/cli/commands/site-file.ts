/**
 * `svc sites apply FILE` and `svc sites export S`: a whole site as one YAML or JSON file.
 * The changes go to stdout, one per line (`+ plan monthly: …`), before anything is written;
 * everything else to stderr. A file with problems exits 1 naming each, with its line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { systemClock } from '../../service/domain/clock';
import { findSite } from '../../service/domain/sites';
import { applySiteFile, summarize } from '../../service/site-file/apply';
import { RefusedChangeError } from '../../service/site-file/changes';
import { formatSiteFile, siteFileOf } from '../../service/site-file/export';
import { formatPath } from '../../service/site-file/cross-check';
import { formatOf, readSiteFile, SiteFileError, type ReadSiteFile } from '../../service/site-file/read';
import { ConflictError } from '../../service/store/errors';
import { dbPath, UsageError } from '../config';
import type { Io } from '../io';
import { withStore } from '../store';

/** Files larger than this are not site files (the demo's is 6 KB). */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

function readText(path: string): string {
  const text = path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8');
  if (Buffer.byteLength(text) > MAX_FILE_BYTES) throw new SiteFileError(path, [{ path: '', message: `the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB` }]);
  return text;
}

export async function applyCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'dry-run': { type: 'boolean' }, db: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('sites apply takes one file (or - for stdin)');
  const path = positionals[0]!;
  const source = path === '-' ? '(stdin)' : path;
  let read: ReadSiteFile;
  try {
    read = readSiteFile(readText(path), formatOf(path), source);
  } catch (error) {
    if (error instanceof SiteFileError) {
      io.err(error.message);
      return 1;
    }
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
      io.err(`cannot read ${source}: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
  const { file } = read;
  // A dry run writes nothing, not even a new database: with none there yet, every change is a creation.
  const db = dbPath(values.db, env);
  const nothingThere = values['dry-run'] && db !== ':memory:' && !db.startsWith('file:') && !existsSync(db);
  return withStore(nothingThere ? ':memory:' : db, env, async (store) => {
    let outcome;
    try {
      outcome = await applySiteFile(store, systemClock, file, { dryRun: values['dry-run'] });
    } catch (error) {
      if (error instanceof RefusedChangeError) {
        const problems = error.issues.map((i) => ({ path: formatPath(i.path), line: read.lineOf(i.path), message: i.message }));
        io.err(new SiteFileError(source, problems).message);
        return 1;
      }
      if (error instanceof ConflictError && error.field === 'revision') {
        io.err(`site ${file.site.subdomain} changed while this ran (another apply or update); nothing was written: run apply again`);
        return 1;
      }
      throw error;
    }
    const { lines } = outcome;
    if (lines.length === 0) {
      io.err(`no changes: site ${file.site.subdomain} matches ${source}`);
      return 0;
    }
    for (const line of lines) io.out(`${line.op} ${line.text}`);
    if (values['dry-run']) {
      io.err(`dry run: ${summarize(lines)}; nothing written`);
      return 0;
    }
    io.err(`site ${file.site.subdomain}${outcome.created ? ` (id ${outcome.siteId}) created` : ' updated'}: ${summarize(lines, { done: true })}`);
    return 0;
  });
}

export async function exportCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string' }, schema: { type: 'string' }, db: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('sites export takes one site (id or subdomain)');
  const format = values.format ?? 'yaml';
  if (format !== 'yaml' && format !== 'json') throw new UsageError(`--format takes yaml or json, got ${format}`);
  // Where `svc serve` on this machine serves the schema, unless told otherwise.
  const schemaUrl = values.schema ?? `http://${env.HOST ?? '127.0.0.1'}:${env.PORT ?? 8787}/schemas/site.json`;
  return withStore(values.db, env, async (store) => {
    const site = await findSite(store, positionals[0]!);
    const definition = site && (await store.getSiteDefinition(site.id));
    if (!definition) {
      io.err(`no site ${positionals[0]}`);
      return 1;
    }
    const endpoints = await store.listWebhookEndpoints(definition.site.id);
    const cliEndpoints = endpoints.filter((e) => e.source !== 'siteFile').length;
    io.out(formatSiteFile(siteFileOf(definition, endpoints), format, schemaUrl, { cliEndpoints }).trimEnd());
    return 0;
  });
}
