/** Filters and keyset pages the store answers. Ranges include `from` and exclude `to`. */
import type { MemberStatus, MembershipStatus, PlanStatus, PlanType } from '../../contract/admin';
import type { EpochMs, InvoiceStatus } from './records';

export interface Range {
  from?: EpochMs;
  to?: EpochMs;
}

/** Keyset paging: items with `id > afterId`, ascending by id, at most `limit` of them. */
export interface PageRequest {
  afterId?: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  /** True when at least one more item matches after the last one returned. */
  hasMore: boolean;
}

export interface PlanFilter {
  type?: PlanType;
  /** The statuses to include; never empty. */
  statuses: readonly PlanStatus[];
}

export interface MemberFilter {
  email?: string;
  firstName?: string;
  lastName?: string;
  status?: MemberStatus;
  created?: Range;
}

export interface MembershipFilter {
  planId?: number;
  memberId?: number;
  status?: MembershipStatus;
  created?: Range;
  billingPeriodEnd?: Range;
  expires?: Range;
  /** When a subscription cancelled at period end ends (`cancelsAt`). Not an Admin API filter. */
  cancels?: Range;
  /**
   * Only memberships of members with a customer at the payment processor (who paid through the
   * service): the ones billing can charge. Not an Admin API filter.
   */
  billable?: boolean;
}

/** GET /invoices (issue 32). */
export interface InvoiceFilter {
  memberId?: number;
  status?: InvoiceStatus;
  created?: Range;
}

export interface MemberEventFilter {
  memberId?: number;
  created?: Range;
}

export interface ContentViewFilter {
  memberId?: number;
  nodeId?: number;
  viewed?: Range;
}
