import { parseArgs } from 'node:util';
import { systemClock } from '../../service/domain/clock';
import { ensureDemoSite, seedMembers } from '../../service/seed/demo';
import { UsageError } from '../config';
import type { Store } from '../../service/store/store';
import type { Io } from '../io';
import { withStore } from '../store';

export const SEED_USAGE = ['svc seed [--members N] [--seed S] [--db PATH]'];

export async function seedCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { members: { type: 'string' }, seed: { type: 'string' }, db: { type: 'string' } } });
  const members = Number(values.members ?? 300);
  if (!/^\d+$/.test(values.members ?? '300') || members > 100_000_000) throw new UsageError('--members must be a whole number up to 100000000');
  // Each run without --seed gets a fresh one, so growing the site twice never repeats an e-mail.
  const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new UsageError('--seed must be a non-negative integer');
  return withStore(values.db, env, async (store) => {
    const started = performance.now();
    const { site, created } = await ensureDemoSite(store, systemClock);
    if (created) io.err(`created the demo site (id ${site.id}) with its plans and library`);
    let lastReport = 0;
    const seedInto = (into: Store) => seedMembers(into, systemClock, site, {
      members,
      seed,
      onProgress: (done, total) => {
        if (performance.now() - lastReport < 1000 && done < total) return;
        lastReport = performance.now();
        io.err(`${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} members (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      },
    });
    // A bulk load holds the member tables until it ends: only where no member waits on them.
    const counts = (await hasMembers(store)) ? await seedInto(store) : await store.bulkLoad(seedInto);
    const seconds = (performance.now() - started) / 1000;
    io.err(`seeded in ${seconds.toFixed(1)} s`);
    io.out(JSON.stringify({ siteId: site.id, ...counts, seconds: Number(seconds.toFixed(1)) }));
    return 0;
  });
}

/** Whether any site of the installation has a member. */
async function hasMembers(store: Store): Promise<boolean> {
  for (const site of await store.listSites()) {
    if ((await store.listMemberSummaries(site.id, {}, { limit: 1 })).items.length > 0) return true;
  }
  return false;
}
