/**
 * The console's only way to the service: the Admin API on the page's own origin, with the
 * owner's key as a bearer token (the API is never CORS-enabled, so the console must be served by
 * the service it reads). A 429 is waited out for its `Retry-After` seconds and asked again, as
 * the spec asks clients to, and the wait is told to the page; every other failure is an
 * `ApiFailure` with the API's own code and message (spec 7: `{errors: [{path, code, message}]}`).
 */
import type { ApiError } from '../../contract/admin';

export const API_BASE = '/admin/v1';

export class ApiFailure extends Error {
  override name = 'ApiFailure';
  constructor(
    /** 0 when the service could not be reached. */
    readonly status: number,
    readonly code: string,
    message: string,
    /** The field or parameter the API named (`base` for none). */
    readonly path = 'base',
  ) {
    super(message);
  }
}

/** Thrown when a read or an action was stopped (the Stop button, leaving the view). */
export class Stopped extends Error {
  override name = 'Stopped';
}

export interface ApiHooks {
  /** A 429 is being waited out: `seconds` from now the request is asked again. */
  onRateLimit?(seconds: number): void;
  /** The wait is over (or was stopped). */
  onRateLimitOver?(): void;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** The cursor of the next page, when `hasMore`. */
  nextCursor: string | undefined;
  /** `X-Total-Count`, on the endpoints that send it (/plans, /sites). */
  total: number | undefined;
}

export type Query = Record<string, string | number | undefined>;

/** `?a=1&b=2` of the values given; '' for none. */
export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Resolves after `ms`, or rejects with Stopped as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Stopped());
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(new Stopped());
    }
    signal?.addEventListener('abort', stop, { once: true });
  });
}

export class AdminApi {
  constructor(
    private readonly key: string,
    private readonly hooks: ApiHooks = {},
    private readonly fetchFn: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  /** One answer of the API, 2xx; a 429 waited out as often as it comes, until `signal` stops it. */
  async send(method: 'GET' | 'POST', path: string, options: { headers?: Record<string, string>; body?: unknown; signal?: AbortSignal } = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}`, ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    for (;;) {
      let response: Response;
      try {
        response = await this.fetchFn(API_BASE + path, {
          method,
          headers,
          ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
          ...(options.signal && { signal: options.signal }),
          // Admin answers are never cached (no-store); the page asks again when it wants to.
          cache: 'no-store',
          credentials: 'omit',
        });
      } catch (error) {
        if (options.signal?.aborted) throw new Stopped();
        throw new ApiFailure(0, 'networkError', `Cannot reach the service: ${(error as Error).message}`);
      }
      if (response.ok) return response;
      if (response.status === 429) {
        // Whole seconds, the API promises; anything else waits a second rather than trusting it.
        const text = response.headers.get('retry-after') ?? '';
        const seconds = /^\d{1,5}$/.test(text) ? Math.max(1, Number(text)) : 1;
        this.hooks.onRateLimit?.(seconds);
        try {
          await sleep(seconds * 1000, options.signal);
        } finally {
          this.hooks.onRateLimitOver?.();
        }
        continue;
      }
      throw await failureOf(response);
    }
  }

  async get<T>(path: string, signal?: AbortSignal): Promise<T> {
    return (await this.send('GET', path, signal && { signal })).json() as Promise<T>;
  }

  async post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    return (await this.send('POST', path, { body, ...(signal && { signal }) })).json() as Promise<T>;
  }

  /** One page of a list (spec 4.2's paging headers): `cursor` from the page before, `size` 1–100. */
  async page<T>(path: string, query: Query | undefined, options: { cursor?: string; size?: number; signal?: AbortSignal } = {}): Promise<Page<T>> {
    const headers: Record<string, string> = { 'x-items-after': String(options.size ?? 100) };
    if (options.cursor) headers['x-cursor'] = options.cursor;
    const response = await this.send('GET', path + queryString(query), { headers, ...(options.signal && { signal: options.signal }) });
    const items = (await response.json()) as T[];
    const hasMore = response.headers.get('x-has-more-items-after') === 'true';
    const nextCursor = response.headers.get('x-next-cursor') ?? undefined;
    if (hasMore && !nextCursor) throw new ApiFailure(response.status, 'badAnswer', `${path} said more items follow but sent no X-Next-Cursor`);
    const total = response.headers.get('x-total-count');
    return { items, hasMore, nextCursor, total: total === null ? undefined : Number(total) };
  }
}

/** The API's error body as one failure: its first error's code, message and path. */
async function failureOf(response: Response): Promise<ApiFailure> {
  const body = (await response.json().catch(() => undefined)) as { errors?: ApiError[] } | undefined;
  const first = Array.isArray(body?.errors) ? body.errors.find((e) => typeof e?.message === 'string') : undefined;
  if (first) return new ApiFailure(response.status, first.code, first.message, first.path);
  return new ApiFailure(response.status, 'badAnswer', `The service answered ${response.status} ${response.statusText}`.trim());
}
