/** Puts the fixture set into a store, hashing the passwords on the way. */
import type { PasswordHasher } from '../src/service/auth/passwords';
import type { NewPlan, SiteRecord } from '../src/service/store/records';
import type { Store } from '../src/service/store/store';
import type { MemberMetadata } from '../src/contract/member';
import type { FixtureSite } from './fixtures';

export interface LoadedSite {
  site: SiteRecord;
  planIds: Record<string, number>;
  fieldIds: Record<string, number>;
  memberIds: Record<string, number>;
  contentIds: Record<string, number>;
}

const DAY = 86_400_000;

/** Times are relative to `now`: sites are 90 days old, subscriptions bill 20 days from now. */
export async function loadFixtures(
  store: Store,
  passwords: PasswordHasher,
  fixtures: readonly FixtureSite[],
  now: number,
): Promise<LoadedSite[]> {
  const loaded: LoadedSite[] = [];
  for (const fixture of fixtures) loaded.push(await loadSite(store, passwords, fixture, now));
  return loaded;
}

async function loadSite(store: Store, passwords: PasswordHasher, fixture: FixtureSite, now: number): Promise<LoadedSite> {
  const createdAt = now - 90 * DAY;
  const site = await store.createSite({ ...fixture.site, createdAt });
  const planIds: Record<string, number> = {};
  for (const { key, ...plan } of fixture.plans) {
    planIds[key] = (await store.createPlan({ ...plan, siteId: site.id, createdAt } as NewPlan)).id;
  }
  const fieldKeys = fixture.signupFields.map((f) => f.key);
  const fieldIds: Record<string, number> = {};
  const ids = await store.createSignupFields(fixture.signupFields.map(({ key: _key, ...field }) => ({ ...field, siteId: site.id })));
  ids.forEach((id, i) => { fieldIds[fieldKeys[i]!] = id; });

  const memberIds: Record<string, number> = {};
  for (const member of fixture.members) {
    const [id] = (await store.createMembers([
      {
        siteId: site.id,
        email: member.email,
        ...(member.firstName && { firstName: member.firstName }),
        ...(member.lastName && { lastName: member.lastName }),
        status: member.status,
        createdAt,
        // The fixtures' members are long-standing ones, whose addresses are known to work.
        emailConfirmedAt: createdAt,
        passwordHash: await passwords.hash(member.password),
        signupValues: Object.entries(member.signupValues ?? {}).map(([key, value]) => ({ fieldId: fieldIds[key]!, value })),
      },
    ])) as [number];
    memberIds[member.key] = id;
    if (member.plans.length > 0) {
      await store.createMemberships(
        member.plans.map((key) => {
          const plan = fixture.plans.find((p) => p.key === key)!;
          return {
            siteId: site.id,
            memberId: id,
            planId: planIds[key]!,
            status: 'active' as const,
            createdAt: createdAt + DAY,
            paymentFailure: false,
            ...(plan.type === 'subscription' && { billingPeriodEnd: now + 20 * DAY }),
          };
        }),
      );
    }
    if (member.metadata) await store.updateMemberMetadata(site.id, id, () => member.metadata as MemberMetadata);
  }
  const contentIds: Record<string, number> = {};
  for (const space of fixture.library ?? []) {
    // Straight to the store, like the plans: the fixtures' rich text is written safe already.
    const spaceId = await store.createContentSpace({ siteId: site.id, name: space.name, planIds: space.openedBy.map((key) => planIds[key]!) });
    for (const { key, ...item } of space.items) contentIds[key] = await store.createContentNode({ siteId: site.id, spaceId, ...item });
  }
  return { site, planIds, fieldIds, memberIds, contentIds };
}
