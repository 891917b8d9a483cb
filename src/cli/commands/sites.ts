import { parseArgs } from 'node:util';
import { createSite, findSite } from '../../service/domain/sites';
import { systemClock } from '../../service/domain/clock';
import { UsageError } from '../config';
import type { Io } from '../io';
import { withStore } from '../store';

export const SITES_USAGE = [
  'svc sites create --subdomain S [--name N] [--domain D] [--currency usd] [--locale en] [--db PATH]',
  'svc sites update S --admin-api on|off [--db PATH]',
];

export async function sitesCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: {
        subdomain: { type: 'string' },
        name: { type: 'string' },
        domain: { type: 'string' },
        currency: { type: 'string' },
        locale: { type: 'string' },
        db: { type: 'string' },
      },
    });
    if (!values.subdomain) throw new UsageError('sites create needs --subdomain');
    const { db, ...input } = values;
    return withStore(db, env, async (store) => {
      const site = await createSite(store, systemClock, { ...input, subdomain: values.subdomain! });
      io.out(String(site.id));
      return 0;
    });
  }
  if (action === 'update') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { 'admin-api': { type: 'string' }, db: { type: 'string' } },
    });
    const toggle = values['admin-api'];
    if (positionals.length !== 1 || (toggle !== 'on' && toggle !== 'off')) {
      throw new UsageError('sites update takes one site (id or subdomain) and --admin-api on|off');
    }
    return withStore(values.db, env, async (store) => {
      const site = await findSite(store, positionals[0]!);
      if (!site) {
        io.err(`no site ${positionals[0]}`);
        return 1;
      }
      await store.updateSite(site.id, { adminApiEnabled: toggle === 'on' });
      io.err(`Admin API ${toggle} for site ${site.subdomain}`);
      return 0;
    });
  }
  throw new UsageError(`unknown sites action ${action ?? '(none)'}`);
}
