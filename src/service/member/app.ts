/**
 * The member API under /member/v1 (docs/member-api.md): what the widget calls. Every route is
 * scoped to one site by its subdomain; browsers may call it only from that site's origins.
 */
import { Hono, type Context } from 'hono';
import type { SessionResponse, SiteConfig } from '../../contract/member';
import type { PasswordHasher } from '../auth/passwords';
import type { PaymentProcessor } from '../payments/processor';
import type { Clock } from '../domain/clock';
import { checkboxLabels } from '../domain/yes-no';
import { assertMetadataPatch, mergeMetadata, MetadataError } from '../domain/metadata';
import { clientAddress, type Connection } from '../http/client-address';
import { jsonResponse } from '../http/json';
import type { RateLimit } from '../http/rate-limit';
import { log } from '../diagnostics';
import { ConflictError } from '../store/errors';
import type { MemberRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { readJson, readObject } from './body';
import { corsHeaders, isAllowedOrigin, preflightHeaders } from './cors';
import { accountRoutes } from './account-routes';
import { billingRoutes } from './billing-routes';
import { contentRoutes } from './content-routes';
import { findOpenPlan, listedPlans, toPlanOffer } from './plan-offers';
import { MemberError } from './errors';
import { loadMemberInfo, toFieldDefinition } from './member-info';
import { authenticate, closeSession, openSession } from './sessions';
import { SignInThrottle } from './sign-in-throttle';
import { SignupLimits } from './signup-limits';
import { readEmail, readPassword, validateSignUp } from './signup';

export const MEMBER_BASE_PATH = '/member/v1';

export interface MemberApiOptions {
  store: Store;
  clock: Clock;
  passwords: PasswordHasher;
  /** Takes the payments of plan sign-ups. */
  processor: PaymentProcessor;
  /** Sign-ups per client address (SVC_SIGNUP_RATE_LIMIT); undefined: not limited per address. */
  signupsPerAddress: RateLimit | undefined;
  /** How many reverse proxies stand in front, whose X-Forwarded-For is believed (SVC_TRUST_PROXY). */
  trustedProxies: number;
}

type MemberEnv = { Variables: { site: SiteRecord } };

export function memberApi({ store, clock, passwords, processor, signupsPerAddress, trustedProxies }: MemberApiOptions): Hono<MemberEnv> {
  const app = new Hono<MemberEnv>();
  const throttle = new SignInThrottle();
  const signupLimits = new SignupLimits(signupsPerAddress);
  let proxyWarned = false;
  const addressOf = (c: Context<MemberEnv>) => {
    if (trustedProxies === 0 && !proxyWarned && c.req.header('x-forwarded-for') !== undefined) {
      proxyWarned = true;
      log.info('requests carry X-Forwarded-For, but SVC_TRUST_PROXY is not set: limits per client address see the proxy, not the client');
    }
    // The server passes the connection as the app's env (server.ts); `app.request` and MSW pass none.
    return clientAddress(c.req.raw, c.env as Connection | undefined, trustedProxies);
  };
  // Unknown e-mails are checked against this, so they cost what a wrong password costs.
  let decoyHash: Promise<string> | undefined;
  const decoy = () => (decoyHash ??= passwords.hash('decoy password, never a member’s'));

  app.use('/sites/:subdomain/*', async (c, next) => {
    const origin = c.req.header('origin');
    const site = await store.getSiteBySubdomain(c.req.param('subdomain'));
    let allowed = false;
    try {
      // Said to any origin: a widget with a wrong subdomain should be able to read why.
      allowed = origin !== undefined && (!site || isAllowedOrigin(origin, site, new URL(c.req.url).origin));
      if (!site) throw MemberError.of(404, 'notFound', 'No site with that subdomain');
      if (origin !== undefined && !allowed) {
        throw MemberError.of(403, 'originNotAllowed', `Pages on ${origin} may not call this site's member API`);
      }
      if (origin !== undefined && c.req.method === 'OPTIONS') {
        c.res = new Response(null, { status: 204, headers: preflightHeaders(origin) });
      } else {
        c.set('site', site);
        await next();
      }
    } catch (error) {
      if (!(error instanceof MemberError)) throw error;
      c.res = error.toResponse();
    }
    // Every answer depends on the Origin (CORS headers, or a 403), so caches must key on it.
    c.res.headers.set('vary', 'Origin');
    if (allowed) for (const [name, value] of Object.entries(corsHeaders(origin!))) c.res.headers.set(name, value);
  });

  const member = async (c: Context<MemberEnv>) => authenticate(store, clock, c.get('site'), c.req.raw);
  const sessionAnswer = async (site: SiteRecord, record: MemberRecord, status: number) => {
    const { token, session } = await openSession(store, clock, site.id, record.id);
    const body: SessionResponse = {
      token,
      expiresAt: new Date(session.expiresAt).toISOString(),
      memberInfo: await loadMemberInfo(store, site, record, clock()),
    };
    return jsonResponse(body, status, { 'cache-control': 'no-store' });
  };
  const recordEvent = (site: SiteRecord, memberId: number, eventType: 'signup' | 'login') =>
    store.createMemberEvents([{ siteId: site.id, memberId, eventType, details: {}, createdAt: clock() }]);

  app.get('/sites/:subdomain/config', async (c) => {
    const site = c.get('site');
    const body: SiteConfig = {
      subdomain: site.subdomain,
      name: site.name,
      domain: site.domain,
      currency: site.defaultCurrency,
      locale: site.locale,
      checkboxLabels: site.checkboxLabels ?? checkboxLabels(site.locale),
      ...(site.theme && { theme: site.theme }),
      signupFields: (await store.listSignupFields(site.id)).map(toFieldDefinition),
      memberMenu: site.memberMenu ?? false,
      afterRegistration: site.afterRegistration ?? { action: 'stay' },
    };
    return jsonResponse(body);
  });

  app.post('/sites/:subdomain/members', async (c) => {
    const site = c.get('site');
    const input = validateSignUp(await readObject(c.req.raw), await store.listSignupFields(site.id));
    signupLimits.count(site.id, input.email, addressOf(c), clock());
    if (await store.findMemberLogin(site.id, input.email)) throw emailTaken();
    const { password, ...profile } = input;
    let id: number;
    try {
      [id] = (await store.createMembers([
        { siteId: site.id, ...profile, passwordHash: await passwords.hash(password), status: 'approved', createdAt: clock() },
      ])) as [number];
    } catch (error) {
      if (error instanceof ConflictError) throw emailTaken(); // lost a race with a sign-up of the same address
      throw error;
    }
    await recordEvent(site, id, 'signup');
    return sessionAnswer(site, (await store.getMember(site.id, id))!, 201);
  });

  app.post('/sites/:subdomain/sessions', async (c) => {
    const site = c.get('site');
    const body = await readObject(c.req.raw);
    const problems: Parameters<typeof readEmail>[1] = [];
    const email = readEmail(body.email, problems);
    const password = readPassword(body.password, problems, false);
    if (problems.length > 0) throw MemberError.fields(problems);

    const login = await store.findMemberLogin(site.id, email);
    const signedIn = await throttle.attempt(`${site.id}\n${email}`, clock, 'base', async () => {
      const valid = await passwords.verify(password, login?.passwordHash ?? (await decoy()));
      return !!login?.passwordHash && valid;
    });
    if (!login || !signedIn) throw MemberError.of(401, 'invalidCredentials', 'The e-mail or the password is wrong');
    if (login.status === 'blocked') throw MemberError.of(403, 'memberBlocked', 'This account is blocked; contact the site');
    await recordEvent(site, login.memberId, 'login');
    return sessionAnswer(site, (await store.getMember(site.id, login.memberId))!, 201);
  });

  app.delete('/sites/:subdomain/sessions/current', async (c) => {
    await closeSession(store, clock, c.get('site'), c.req.raw);
    return new Response(null, { status: 204 });
  });

  app.get('/sites/:subdomain/me', async (c) => {
    const { member: record } = await member(c);
    return jsonResponse(await loadMemberInfo(store, c.get('site'), record, clock()), 200, { 'cache-control': 'no-store' });
  });

  app.get('/sites/:subdomain/me/metadata', async (c) => {
    const { member: record } = await member(c);
    return jsonResponse((await store.getMemberMetadata(record.siteId, record.id)) ?? {}, 200, { 'cache-control': 'no-store' });
  });

  app.patch('/sites/:subdomain/me/metadata', async (c) => {
    const { member: record } = await member(c);
    const patch = await readJson(c.req.raw);
    const updated = await asMemberError(async () => {
      assertMetadataPatch(patch);
      return store.updateMemberMetadata(record.siteId, record.id, (current) => mergeMetadata(current, patch));
    });
    return jsonResponse(updated ?? {});
  });

  app.delete('/sites/:subdomain/me/metadata', async (c) => {
    const { member: record } = await member(c);
    return jsonResponse((await store.updateMemberMetadata(record.siteId, record.id, () => ({}))) ?? {});
  });

  accountRoutes(app, { store, clock, passwords, throttle, authenticate: member, emailTaken });
  billingRoutes(app, { store, clock, processor, authenticate: member });
  contentRoutes(app, { store, clock, authenticate: member });

  // The plans a visitor may sign up to: listed ones are public; any open one opens by its link.
  app.get('/sites/:subdomain/plans', async (c) => {
    const now = clock();
    return jsonResponse((await listedPlans(store, c.get('site').id)).map((p) => toPlanOffer(p, now)));
  });
  app.get('/sites/:subdomain/plans/:publicId', async (c) => {
    const plan = await findOpenPlan(store, c.get('site').id, c.req.param('publicId'));
    if (!plan) throw MemberError.of(404, 'notFound', 'No plan with that id is open for sign-up', 'publicId');
    return jsonResponse(toPlanOffer(plan, clock()));
  });

  // Known paths answer other methods with 405 and say which ones they take.
  const methods: Record<string, string> = {
    '/sites/:subdomain/config': 'GET',
    '/sites/:subdomain/members': 'POST',
    '/sites/:subdomain/sessions': 'POST',
    '/sites/:subdomain/sessions/current': 'DELETE',
    '/sites/:subdomain/me': 'GET, PATCH',
    '/sites/:subdomain/me/email': 'PUT',
    '/sites/:subdomain/me/password': 'PUT',
    '/sites/:subdomain/me/metadata': 'GET, PATCH, DELETE',
    '/sites/:subdomain/plans': 'GET',
    '/sites/:subdomain/plans/:publicId': 'GET',
    '/sites/:subdomain/memberships': 'POST',
    '/sites/:subdomain/memberships/:id/cancel': 'POST',
    '/sites/:subdomain/invoices': 'GET',
    '/sites/:subdomain/payment-method': 'GET, PUT',
    '/sites/:subdomain/content/:contentId': 'GET',
    '/sites/:subdomain/content/:contentId/plans': 'GET',
  };
  for (const [path, allow] of Object.entries(methods)) {
    app.all(path, (c) => {
      throw MemberError.of(405, 'methodNotAllowed', `${c.req.method} is not supported here; use ${allow}`, 'base', { allow });
    });
  }
  return app;
}

const emailTaken = () => MemberError.of(409, 'emailTaken', 'A member with this e-mail already exists; sign in instead', 'email');

async function asMemberError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof MetadataError) throw MemberError.of(error.code === 'metadataTooLarge' ? 413 : 400, error.code, error.message);
    throw error;
  }
}
