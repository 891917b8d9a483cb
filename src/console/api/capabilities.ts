/**
 * What the owner's key may do: at sign-in the console reads the key's own scopes (GET /key), and
 * shows only the sections and actions they open. A key without a scope gets 404 from that
 * scope's endpoints (spec 5.1), so an action that answers 404 later (a key narrowed meanwhile)
 * marks its scope missing too.
 */
import { SCOPES, type ApiKey, type Scope } from '../../contract/admin';
import type { AdminApi } from './admin-api';

/** What each scope lets the console do, in the words "This key cannot …". */
const ABILITY: Record<Scope, string> = {
  'read.members': 'read members',
  'read.memberships': 'read memberships',
  'read.plans': 'read plans',
  'read.memberEvents': 'read member events',
  'read.contentViews': 'read content views',
  'read.invoices': 'read invoices',
  'members:write': 'block, unblock, export or erase members',
  'memberships:write': 'cancel memberships or give plans for free',
  'invoices:write': 'refund invoices',
};

/** "This key cannot read members (needs read.members)". */
export const lacksMessage = (scope: Scope): string => `This key cannot ${ABILITY[scope]} (needs ${scope})`;

export class Capabilities {
  private readonly missing = new Set<Scope>();

  has(scope: Scope): boolean {
    return !this.missing.has(scope);
  }

  lacks(scope: Scope): void {
    this.missing.add(scope);
  }

  /** The scopes known to be missing, in the contract's order. */
  missingScopes(): Scope[] {
    return [...this.missing];
  }

  /** The key's scopes, as the service says (GET /key). */
  static async ofKey(api: AdminApi, signal?: AbortSignal): Promise<Capabilities> {
    const key = await api.get<ApiKey>('/key', signal);
    const capabilities = new Capabilities();
    for (const scope of SCOPES) if (!key.scopes.includes(scope)) capabilities.lacks(scope);
    return capabilities;
  }
}
