/** The API keys the fixture issues: for each open site, one key per scope combination the spec names. */
import { SCOPES, type Scope } from '../../../src/contract/admin';
import { issueApiKey } from '../../../src/service/auth/api-keys';
import type { Clock } from '../../../src/service/domain/clock';
import type { Store } from '../../../src/service/store/store';

export interface SiteKeys {
  /** Every scope. */
  all: string;
  /** No scope at all. */
  none: string;
  /** Exactly one scope each. */
  only: Record<Scope, string>;
  /** Every scope but one, keyed by the missing scope. */
  allBut: Record<Scope, string>;
}

export interface FixtureKeys {
  demo: SiteKeys;
  other: SiteKeys;
  empty: SiteKeys;
  /** A key with every scope of the `closed` site, whose Admin API is off. */
  closed: string;
  /** Demo keys with every scope, past their expiry / revoked. */
  expired: string;
  revoked: string;
}

export async function issueSiteKeys(store: Store, clock: Clock, siteId: number): Promise<SiteKeys> {
  const issue = async (scopes: Scope[]) => (await issueApiKey(store, clock, { siteId, scopes })).key;
  const only = {} as Record<Scope, string>;
  const allBut = {} as Record<Scope, string>;
  for (const scope of SCOPES) {
    only[scope] = await issue([scope]);
    allBut[scope] = await issue(SCOPES.filter((s) => s !== scope));
  }
  return { all: await issue([...SCOPES]), none: await issue([]), only, allBut };
}

/** Every key string of the fixture, in a fixed order. */
export function everyFixtureKey(keys: FixtureKeys): string[] {
  return [
    ...[keys.demo, keys.other, keys.empty].flatMap((k) => [k.all, k.none, ...Object.values(k.only), ...Object.values(k.allBut)]),
    keys.closed,
    keys.expired,
    keys.revoked,
  ];
}
