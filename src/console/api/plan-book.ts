/**
 * The site's plans, read once a sign-in and kept: /plans lists the live ones (enabled and
 * disabled), and a plan it leaves out (archived, deleted) that a membership names is read by id.
 */
import type { Plan } from '../../contract/admin';
import type { AdminApi } from './admin-api';
import { readAll } from './long-read';

export class PlanBook {
  private listed: Promise<Plan[]> | undefined;
  private readonly byId = new Map<number, Plan>();

  constructor(private readonly api: AdminApi) {}

  /** Every plan /plans lists, in id order. */
  listedPlans(signal: AbortSignal): Promise<Plan[]> {
    this.listed ??= (async () => {
      const plans: Plan[] = [];
      const outcome = await readAll<Plan>(this.api, '/plans', undefined, { signal, onPage: (items) => plans.push(...items) });
      if (!outcome.complete) throw new Error('stopped');
      for (const plan of plans) this.byId.set(plan.id, plan);
      return plans;
    })();
    // A failed or stopped read is asked again next time.
    this.listed.catch(() => (this.listed = undefined));
    return this.listed;
  }

  /** The plans with these ids: the listed ones, and each other one read by id (one it cannot find is left out). */
  async plans(ids: Iterable<number>, signal: AbortSignal): Promise<Map<number, Plan>> {
    await this.listedPlans(signal);
    const wanted = [...new Set(ids)];
    await Promise.all(
      wanted
        .filter((id) => !this.byId.has(id))
        .map(async (id) => {
          try {
            this.byId.set(id, await this.api.get<Plan>(`/plans/${id}`, signal));
          } catch {
            // Deleted for good, or unreadable: shown by its id.
          }
        }),
    );
    return new Map(wanted.flatMap((id) => (this.byId.has(id) ? [[id, this.byId.get(id)!] as const] : [])));
  }

  /** Forgets what was read (after an action that changes counts). */
  refresh(): void {
    this.listed = undefined;
  }
}
