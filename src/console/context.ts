/** What every view gets: the signed-in key's API client, its site, what the key may read, and the app's hooks. */
import type { Member, Scope, Site } from '../contract/admin';
import type { Capabilities } from './api/capabilities';
import { ApiFailure, type AdminApi } from './api/admin-api';
import { lacksMessage } from './api/capabilities';
import type { PlanBook } from './api/plan-book';

export interface ConsoleContext {
  readonly api: AdminApi;
  readonly site: Site;
  readonly capabilities: Capabilities;
  readonly plans: PlanBook;
  /** Members seen in the table, by id: the member page's header without a second read. */
  readonly members: Map<number, Member>;
  /**
   * A request failed: a 401 signs out (the key was revoked or expired); a 404 from an endpoint
   * guarded by `scope` marks the scope as missing. Returns the words to show.
   */
  failed(error: unknown, scope?: Scope): string;
}

/** The words for a failure, without side effects (ConsoleContext.failed adds those). */
export function describeFailure(error: unknown, scope?: Scope): string {
  if (error instanceof ApiFailure) {
    if (error.status === 404 && scope) return lacksMessage(scope);
    if (error.status === 0) return error.message;
    return `The service answered ${error.status} ${error.code}: ${error.message}`;
  }
  return `Something went wrong: ${(error as Error)?.message ?? String(error)}`;
}
