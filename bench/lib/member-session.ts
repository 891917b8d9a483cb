/**
 * A signed-in member for the GET /me scenarios: the first approved member of the demo site with
 * two memberships or more (so MemberInfo has memberships and plans to read), and a session of
 * theirs opened through the service's own store and session code, as a sign-in would open it
 * (without the password hash, which costs 0.3 s and is not what /me measures).
 */
import { systemClock } from '../../src/service/domain/clock';
import { openSession } from '../../src/service/member/sessions';
import { openStore } from '../../src/service/store/open';

export interface MemberSession {
  siteSubdomain: string;
  memberId: number;
  memberships: number;
  token: string;
}

export async function openMemberSession(database: string, subdomain = 'demo'): Promise<MemberSession> {
  const store = await openStore(database);
  try {
    const site = await store.getSiteBySubdomain(subdomain);
    if (!site) throw new Error(`no site ${subdomain} in ${database}`);
    const page = await store.listMembers(site.id, { status: 'approved' }, { limit: 100 });
    for (const member of page.items) {
      const memberships = (await store.listMembershipsOfMember(site.id, member.id)).length;
      if (memberships < 2) continue;
      const { token } = await openSession(store, systemClock, site.id, member.id);
      return { siteSubdomain: subdomain, memberId: member.id, memberships, token };
    }
    throw new Error(`none of the first ${page.items.length} approved members of ${subdomain} has two memberships`);
  } finally {
    await store.close();
  }
}
