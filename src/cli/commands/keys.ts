import { parseArgs } from 'node:util';
import { hashApiKey, issueApiKey, parseScopes } from '../../service/auth/api-keys';
import { systemClock } from '../../service/domain/clock';
import { parseDuration } from '../../service/domain/duration';
import { findSite } from '../../service/domain/sites';
import { UsageError } from '../config';
import type { Io } from '../io';
import { withStore } from '../store';

export const KEYS_USAGE = [
  'svc keys create --site S --scopes a,b,… [--expires-in 30s|10m|2h|7d] [--db PATH]',
  'svc keys revoke KEY [--db PATH]',
];

export async function keysCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: { site: { type: 'string' }, scopes: { type: 'string' }, 'expires-in': { type: 'string' }, db: { type: 'string' } },
    });
    if (!values.site || values.scopes === undefined) throw new UsageError('keys create needs --site and --scopes');
    const scopes = parseScopes(values.scopes);
    let expiresInMs: number | undefined;
    if (values['expires-in'] !== undefined) {
      expiresInMs = parseDuration(values['expires-in']);
      if (expiresInMs === undefined) throw new UsageError(`--expires-in must look like 30s, 10m, 2h or 7d, got ${values['expires-in']}`);
    }
    return withStore(values.db, env, async (store) => {
      const site = await findSite(store, values.site!);
      if (!site) {
        io.err(`no site ${values.site}`);
        return 1;
      }
      const { key } = await issueApiKey(store, systemClock, { siteId: site.id, scopes, ...(expiresInMs !== undefined && { expiresInMs }) });
      io.out(key);
      io.err('This key is shown once and only its hash is stored: keep it now.');
      return 0;
    });
  }
  if (action === 'revoke') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { db: { type: 'string' } } });
    if (positionals.length !== 1) throw new UsageError('keys revoke takes exactly one key');
    return withStore(values.db, env, async (store) => {
      const revoked = await store.revokeApiKey(hashApiKey(positionals[0]!), systemClock());
      if (!revoked) {
        io.err('no such key, or it is revoked already');
        return 1;
      }
      io.err('key revoked');
      return 0;
    });
  }
  throw new UsageError(`unknown keys action ${action ?? '(none)'}`);
}
