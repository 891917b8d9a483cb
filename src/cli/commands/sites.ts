import { parseArgs } from 'node:util';
import { createSite, findSite, parseAfterRegistration, SiteSettingError } from '../../service/domain/sites';
import type { SiteRecord, SitePatch } from '../../service/store/records';
import { systemClock } from '../../service/domain/clock';
import { UsageError } from '../config';
import type { Io } from '../io';
import { withStore } from '../store';
import { applyCommand, exportCommand } from './site-file';

export const SITES_USAGE = [
  'svc sites apply FILE [--dry-run] [--db PATH]',
  'svc sites export S [--format yaml|json] [--schema URL] [--db PATH]',
  'svc sites list [--db PATH]',
  'svc sites create --subdomain S [--name N] [--domain D] [--currency usd] [--locale en] [--db PATH]',
  'svc sites update S [--admin-api on|off] [--member-menu on|off] [--after-registration stay|plans|URL] [--db PATH]',
];

export async function sitesCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'apply') return applyCommand(rest, env, io);
  if (action === 'export') return exportCommand(rest, env, io);
  if (action === 'list') {
    const { values } = parseArgs({ args: rest, options: { db: { type: 'string' } } });
    return withStore(values.db, env, async (store) => {
      const sites = await store.listSites();
      if (sites.length === 0) io.err('no sites yet: svc sites apply FILE makes one (see the README, "Run your own site")');
      // One site a line, tab-separated: subdomain, name, domain.
      for (const site of sites) io.out([site.subdomain, site.name, site.domain].join('\t'));
      return 0;
    });
  }
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
      options: {
        'admin-api': { type: 'string' },
        'member-menu': { type: 'string' },
        'after-registration': { type: 'string' },
        db: { type: 'string' },
      },
    });
    const patch: SitePatch = {};
    const toggle = (option: 'admin-api' | 'member-menu'): boolean | undefined => {
      const value = values[option];
      if (value === undefined) return undefined;
      if (value !== 'on' && value !== 'off') throw new UsageError(`--${option} takes on or off`);
      return value === 'on';
    };
    const adminApi = toggle('admin-api');
    const memberMenu = toggle('member-menu');
    if (adminApi !== undefined) patch.adminApiEnabled = adminApi;
    if (memberMenu !== undefined) patch.memberMenu = memberMenu;
    if (values['after-registration'] !== undefined) {
      try {
        patch.afterRegistration = parseAfterRegistration(values['after-registration']);
      } catch (error) {
        if (error instanceof SiteSettingError) throw new UsageError(error.message);
        throw error;
      }
    }
    if (positionals.length !== 1 || Object.keys(patch).length === 0) {
      throw new UsageError('sites update takes one site (id or subdomain) and at least one setting to change');
    }
    return withStore(values.db, env, async (store) => {
      const site = await findSite(store, positionals[0]!);
      if (!site) {
        io.err(`no site ${positionals[0]}`);
        return 1;
      }
      const updated = (await store.updateSite(site.id, patch))!;
      io.err(
        `site ${updated.subdomain}: Admin API ${updated.adminApiEnabled ? 'on' : 'off'}, member menu ${updated.memberMenu ? 'on' : 'off'}, ` +
          `after registration ${describeAfterRegistration(updated)}`,
      );
      return 0;
    });
  }
  throw new UsageError(`unknown sites action ${action ?? '(none)'}`);
}

function describeAfterRegistration(site: SiteRecord): string {
  const action = site.afterRegistration ?? { action: 'stay' };
  return action.action === 'redirect' ? `go to ${action.url}` : action.action;
}
