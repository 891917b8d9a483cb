/**
 * A typed client of the Admin API (issue 30), for scripts and back offices in TypeScript or
 * JavaScript on Node 22+ or a browser: every endpoint, every filter typed from the contract
 * (src/contract/admin.ts), lists as async iterables that page with the cursor headers, a 429 waited
 * out as its `Retry-After` says and asked again, and failures as one error type with the API's own
 * code. No dependency but `fetch`.
 *
 *   const client = adminClient({ baseUrl: 'https://members.example.com', key: process.env.SVC_ADMIN_KEY! });
 *   for await (const member of client.members({ status: 'approved' })) console.log(member.email);
 */
import type {
  ApiError,
  ContentView,
  ErrorCode,
  IsoDateTime,
  Member,
  MemberEvent,
  MemberStatus,
  Membership,
  MembershipStatus,
  Plan,
  PlanStatus,
  PlanType,
  Site,
} from '../contract/admin';

/** A time bound: an ISO 8601 date-time (or date), or a Date. `…After` bounds are inclusive, `…Before` exclusive. */
export type TimeBound = IsoDateTime | Date;

export interface PlanFilters {
  type?: PlanType;
  status?: PlanStatus;
}

export interface MemberFilters {
  email?: string;
  firstName?: string;
  lastName?: string;
  status?: MemberStatus;
  createdAfter?: TimeBound;
  createdBefore?: TimeBound;
}

export interface MembershipFilters {
  planId?: number;
  memberId?: number;
  status?: MembershipStatus;
  createdAfter?: TimeBound;
  createdBefore?: TimeBound;
  billingPeriodEndAfter?: TimeBound;
  billingPeriodEndBefore?: TimeBound;
  expiresAfter?: TimeBound;
  expiresBefore?: TimeBound;
}

export interface MemberEventFilters {
  memberId?: number;
  createdAfter?: TimeBound;
  createdBefore?: TimeBound;
}

export interface ContentViewFilters {
  memberId?: number;
  nodeId?: number;
  viewedAfter?: TimeBound;
  viewedBefore?: TimeBound;
}

export interface AdminClientOptions {
  /** The service's origin, such as `https://members.example.com` (the API is under /admin/v1). */
  baseUrl: string;
  /** An Admin API key, `svc_admin_…`. */
  key: string;
  /** Items a page (1–100; default 100, the fewest requests). */
  pageSize?: number;
  /** 429s in a row on one request before it fails (default 5). */
  maxRetries?: number;
  /** Told each time a 429 is waited out, before the wait. */
  onRateLimit?: (wait: { path: string; seconds: number; retry: number }) => void;
  /** Told of each page of a list as it arrives (`path` without the query): progress for a long read. */
  onPage?: (page: { path: string; items: number }) => void;
  /** Per request (default 30 s), so a stuck connection fails instead of hanging. */
  timeoutMs?: number;
  /** Another fetch (a proxy-aware one, a test's). */
  fetch?: typeof fetch;
  /** How to wait (a test's clock); by default, a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** Any answer but a 2xx, with the API's errors (`{errors: [{path, code, message}]}`); `code` is the first's. */
export class AdminApiError extends Error {
  override name = 'AdminApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'networkError' | 'badAnswer',
    readonly errors: ApiError[],
    message: string,
  ) {
    super(message);
  }
}

export interface AdminClient {
  /** The key's own site, with its member counts (no scope needed). */
  site(): Promise<Site>;
  /** One plan (`read.plans`); AdminApiError `notFound` for none. */
  plan(id: number): Promise<Plan>;
  plans(filters?: PlanFilters): AsyncIterable<Plan>;
  members(filters?: MemberFilters): AsyncIterable<Member>;
  memberships(filters?: MembershipFilters): AsyncIterable<Membership>;
  memberEvents(filters?: MemberEventFilters): AsyncIterable<MemberEvent>;
  contentViews(filters?: ContentViewFilters): AsyncIterable<ContentView>;
}

export function adminClient(options: AdminClientOptions): AdminClient {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/admin/v1`;
  const pageSize = options.pageSize ?? 100;
  const maxRetries = options.maxRetries ?? 5;
  const fetchFn = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  /** One GET answered 2xx; a 429 waited out and asked again, up to maxRetries times in a row. */
  async function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    for (let retry = 1; ; retry++) {
      let response: Response;
      try {
        response = await fetchFn(base + path, { headers: { authorization: `Bearer ${options.key}`, ...headers }, signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
      } catch (error) {
        // fetch() says "fetch failed"; its cause says why (ECONNREFUSED, a timeout).
        const why = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
        throw new AdminApiError(0, 'networkError', [], `cannot reach ${base}${path}: ${why}`);
      }
      if (response.ok) return response;
      const errors = (((await response.json().catch(() => undefined)) as { errors?: ApiError[] } | undefined)?.errors ?? []).filter((e) => typeof e?.code === 'string');
      if (response.status === 429 && retry <= maxRetries) {
        // Whole seconds, the API promises; anything else counts as 1 s rather than trusted.
        const text = response.headers.get('retry-after') ?? '';
        const seconds = /^\d{1,5}$/.test(text) ? Number(text) : 1;
        options.onRateLimit?.({ path, seconds, retry });
        await sleep(seconds * 1000);
        continue;
      }
      const first = errors[0];
      const code = first?.code ?? 'badAnswer';
      throw new AdminApiError(response.status, code, errors, `GET ${base}${path} answered ${response.status}${first ? ` ${first.code}: ${first.message}` : ''}`);
    }
  }

  /** Every item of a list, a page at a time, each next page asked for with the cursor the last one gave. */
  async function* list<T>(path: string, filters: object | undefined): AsyncGenerator<T> {
    const query = queryOf(filters);
    let cursor: string | null = null;
    for (;;) {
      const response = await get(`${path}${query}`, { 'x-items-after': String(pageSize), ...(cursor && { 'x-cursor': cursor }) });
      const items = (await response.json()) as T[];
      options.onPage?.({ path, items: items.length });
      yield* items;
      if (response.headers.get('x-has-more-items-after') !== 'true') return;
      cursor = response.headers.get('x-next-cursor');
      if (!cursor) throw new AdminApiError(response.status, 'badAnswer', [], `GET ${base}${path} said more items follow but sent no X-Next-Cursor`);
    }
  }

  return {
    site: async () => ((await (await get('/sites')).json()) as Site[])[0]!,
    plan: async (id) => (await (await get(`/plans/${encodeURIComponent(String(id))}`)).json()) as Plan,
    plans: (filters) => list<Plan>('/plans', filters),
    members: (filters) => list<Member>('/members', filters),
    memberships: (filters) => list<Membership>('/memberships', filters),
    memberEvents: (filters) => list<MemberEvent>('/memberEvents', filters),
    contentViews: (filters) => list<ContentView>('/contentLibrary/views', filters),
  };
}

/** `?a=1&b=…` of the filters given (a Date as its ISO string); '' for none. */
function queryOf(filters: object | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters ?? {})) {
    if (value === undefined) continue;
    params.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
