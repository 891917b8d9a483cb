/**
 * What every widget test needs: the real service inside MSW (mock-server/), a fresh
 * `window.Service`, a record of the events the widget sends, and a clean slate afterwards.
 */
import { http, HttpResponse } from 'msw';
import { afterEach, vi } from 'vitest';
import { DEMO_FIXTURE } from '../../mock-server/fixtures';
import { createMockServer, type MockServer } from '../../mock-server/node';
import type { MemberInfo, SessionResponse } from '../../src/contract/member';
import { sha256Hex } from '../../src/service/crypto/digests';
import type { ServiceEventMap, ServiceGlobal } from '../../src/widget/public-types';
import { startWidget, type WidgetHandle } from '../../src/widget/start-widget';

export const EVENT_NAMES = [
  'Service.ready',
  'Service.member.info',
  'Service.member.logout',
  'Service.member.registration',
  'Service.conversion',
] as const satisfies readonly (keyof ServiceEventMap)[];

export interface RecordedEvent {
  type: keyof ServiceEventMap;
  detail: unknown;
}

/** Every widget event sent on `document`, in order. */
export function recordEvents(): RecordedEvent[] & { names(): string[]; of(type: keyof ServiceEventMap): unknown[] } {
  const events: RecordedEvent[] = [];
  const listener = (event: Event) =>
    events.push({ type: event.type as keyof ServiceEventMap, detail: (event as CustomEvent).detail });
  for (const name of EVENT_NAMES) document.addEventListener(name, listener);
  cleanups.push(() => {
    for (const name of EVENT_NAMES) document.removeEventListener(name, listener);
  });
  return Object.assign(events, {
    names: () => events.map((e) => e.type as string),
    of: (type: keyof ServiceEventMap) => events.filter((e) => e.type === type).map((e) => e.detail),
  });
}

const cleanups: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  try {
    localStorage.clear();
  } catch {
    // a test made it throw
  }
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]!.trim();
    if (!name) continue;
    for (const domain of ['', `; Domain=${location.hostname.split('.').slice(-2).join('.')}`]) {
      document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT${domain}`;
    }
  }
  delete (window as { Service?: unknown }).Service;
});

function fixtureMember(key: string) {
  const member = DEMO_FIXTURE.members.find((m) => m.key === key);
  if (!member) throw new Error(`no fixture member ${key}`);
  return { email: member.email, password: member.password };
}

/** The fixture site's members, with their passwords: Ada has metadata and two plans, Grace none. */
export const ADA = fixtureMember('ada');
export const GRACE = fixtureMember('grace');
/** Correct credentials of a blocked member. */
export const MALLORY = fixtureMember('mallory');

export interface Harness {
  mock: MockServer;
  /** `${origin}/member/v1/sites/demo` */
  base: string;
  /** The page's `window.Service`, with the widget's API once started. */
  service: ServiceGlobal;
  /** Starts (or, after a stop, restarts: a page reload) the widget on this page. */
  start(config?: Record<string, unknown>): WidgetHandle;
  /** Signs in through the API directly, as another tab or subdomain would. */
  signIn(credentials?: { email: string; password: string }): Promise<SessionResponse>;
  /** Revokes a session on the service, as signing out on another device would. */
  revoke(token: string): Promise<void>;
  /** Asks the service who a token belongs to. */
  me(token: string): Promise<{ status: number; member?: MemberInfo }>;
  /** Makes the member API unreachable, for one path or for all of it. */
  failNetwork(path?: string): void;
  /** Number of requests the service has answered for a method and path under `base`. */
  requests(method: string, path: string): number;
}

/** A mock service, and a page set up as the demo site's (see the test files' happy-dom url). */
export async function harness(): Promise<Harness> {
  const mock = await createMockServer();
  const base = `${mock.origin}/member/v1/sites/${mock.fixtures.site.subdomain}`;
  const seen: string[] = [];
  mock.server.events.on('request:start', ({ request }) => {
    seen.push(`${request.method} ${request.url}`);
  });
  let handle: WidgetHandle | undefined;
  const page = { service: {} as ServiceGlobal };
  cleanups.push(() => {
    handle?.stop();
    mock.server.close();
  });
  const json = (response: Response) => response.json() as Promise<unknown>;
  return {
    mock,
    base,
    get service() {
      return page.service;
    },
    start(config = {}) {
      handle?.stop();
      page.service = { subdomain: mock.fixtures.site.subdomain, ...config } as unknown as ServiceGlobal;
      window.Service = page.service;
      handle = startWidget({ window, apiOrigin: mock.origin });
      return handle;
    },
    async signIn(credentials = ADA) {
      const response = await fetch(`${base}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(credentials),
      });
      if (response.status !== 201) throw new Error(`sign-in answered ${response.status}`);
      return (await json(response)) as SessionResponse;
    },
    async revoke(token) {
      if (!(await mock.store.revokeSession(sha256Hex(token), Date.now()))) throw new Error('no such session');
    },
    async me(token) {
      const response = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, ...(response.ok && { member: (await json(response)) as MemberInfo }) };
    },
    failNetwork(path = '*') {
      mock.server.use(http.all(`${base}/${path}`, () => HttpResponse.error()));
    },
    requests(method, path) {
      return seen.filter((line) => line === `${method} ${base}${path}`).length;
    },
  };
}

/** Gives pending promises and MSW's answers a moment to settle. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Adds a membership of the community plan to a member on the service, changing their MemberInfo. */
export async function joinCommunity(mock: MockServer, memberKey: 'ada' | 'grace'): Promise<void> {
  const loaded = mock.sites[0]!;
  await mock.store.createMemberships([
    {
      siteId: loaded.site.id,
      memberId: loaded.memberIds[memberKey]!,
      planId: loaded.planIds.community!,
      status: 'active',
      createdAt: Date.now(),
      paymentFailure: false,
    },
  ]);
}
