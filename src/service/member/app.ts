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
import { answer, replaceAnswer, withHeaders } from '../http/answer';
import { jsonResponse } from '../http/json';
import type { RateLimit } from '../http/rate-limit';
import { log } from '../diagnostics';
import { ConflictError } from '../store/errors';
import type { MemberRecord, MemberTokenRecord, SessionRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { readJson, readObject } from './body';
import { corsHeaders, isAllowedOrigin, preflightHeaders } from './cors';
import { accountRoutes } from './account-routes';
import { billingRoutes } from './billing-routes';
import { contentRoutes } from './content-routes';
import { findOpenPlan, listedPlans, toPlanOffer } from './plan-offers';
import { MemberError } from './errors';
import { loadMemberInfo, toFieldDefinition } from './member-info';
import { authenticate, bearerToken, closeSession, newSession, openSession } from './sessions';
import { CODE_RULE, SignInThrottle } from './sign-in-throttle';
import { ClientLimits } from './client-limits';
import { SignupLimits } from './signup-limits';
import { bad, PASSWORD_MAX, readEmail, readPassword, validateSignUp, type Problems } from './signup';
import { codeRefused, firstConfirmation, mailSent, matchCode, refuseBlocked, requestSignInMail, signInMail, tokenError } from './mail-flows';
import { findToken, mailRoutes } from './mail-routes';
import { demoMailboxRoute } from './demo-mailbox';
import { readCode } from './mail-tokens';
import { readReturnTo } from './return-to';
import { sendsNotice } from '../domain/site-mail';
import { textProblem } from '../domain/validation';

export const MEMBER_BASE_PATH = '/member/v1';
const VARY_ORIGIN = { vary: 'Origin' };

export interface MemberApiOptions {
  store: Store;
  clock: Clock;
  passwords: PasswordHasher;
  /** Takes the payments of plan sign-ups. */
  processor: PaymentProcessor;
  /** Sign-ups per client address (SVC_SIGNUP_RATE_LIMIT); undefined: not limited per address. */
  signupsPerAddress: RateLimit | undefined;
  /** Sign-in attempts (passwords and codes) per client address (SVC_SIGNIN_RATE_LIMIT); undefined: not limited per address. */
  signInsPerAddress: RateLimit | undefined;
  /** Requested mails per client address (SVC_MAIL_RATE_LIMIT); undefined: not limited per address. */
  mailsPerAddress: RateLimit | undefined;
  /** How many reverse proxies stand in front, whose X-Forwarded-For is believed (SVC_TRUST_PROXY). */
  trustedProxies: number;
  /** Serve the demo site's mailbox (./demo-mailbox). */
  demoMailbox?: boolean;
}

type MemberEnv = { Variables: { site: SiteRecord } };

export function memberApi(options: MemberApiOptions): Hono<MemberEnv> {
  const { store, clock, passwords, processor, signupsPerAddress, trustedProxies, demoMailbox } = options;
  const app = new Hono<MemberEnv>();
  const throttle = new SignInThrottle(store);
  const signupLimits = new SignupLimits(store, signupsPerAddress);
  const clientLimits = new ClientLimits(store, { signIns: options.signInsPerAddress, mails: options.mailsPerAddress });
  const codeThrottle = new SignInThrottle(store, 'sign-in-code', CODE_RULE);
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
    const subdomain = c.req.param('subdomain');
    // PostgreSQL refuses a NUL with an error of its own (a 500): such a name is no site's.
    const site = textProblem(subdomain) === undefined ? await store.getSiteBySubdomain(subdomain) : undefined;
    let allowed = false;
    try {
      // Said to any origin: a widget with a wrong subdomain should be able to read why.
      allowed = origin !== undefined && (!site || isAllowedOrigin(origin, site, new URL(c.req.url).origin));
      if (!site) throw MemberError.of(404, 'notFound', 'No site with that subdomain');
      if (origin !== undefined && !allowed) {
        throw MemberError.of(403, 'originNotAllowed', `Pages on ${origin} may not call this site's member API`);
      }
      if (origin !== undefined && c.req.method === 'OPTIONS') {
        replaceAnswer(c, answer(null, 204, preflightHeaders(origin)));
      } else {
        c.set('site', site);
        await next();
      }
    } catch (error) {
      if (!(error instanceof MemberError)) throw error;
      replaceAnswer(c, error.toResponse());
    }
    // Every answer depends on the Origin (CORS headers, or a 403), so caches must key on it.
    replaceAnswer(c, withHeaders(c.res, allowed ? corsHeaders(origin!) : VARY_ORIGIN));
  });

  const member = async (c: Context<MemberEnv>) => authenticate(store, clock, c.get('site'), c.req.raw);
  /** 201 with the session's bearer token and the member. */
  const sessionAnswer = async (site: SiteRecord, record: MemberRecord, token: string, session: SessionRecord, registered = false) => {
    const body: SessionResponse = {
      token,
      expiresAt: new Date(session.expiresAt).toISOString(),
      memberInfo: await loadMemberInfo(store, site, record, clock()),
      ...(registered && { registered: true }),
    };
    return jsonResponse(body, 201, { 'cache-control': 'no-store' });
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

  // Sign-up mails a code and link that confirm the address (with the welcome notice when the
  // site sends it). A site that wants addresses confirmed first signs nobody in here, and answers
  // a taken address exactly like a new one: its owner gets a mail instead (docs/member-api.md).
  app.post('/sites/:subdomain/members', async (c) => {
    const site = c.get('site');
    const body = await readObject(c.req.raw);
    const input = validateSignUp(body, await store.listSignupFields(site.id));
    const problems: Problems = [];
    const returnTo = readReturnTo(body.returnTo, site, problems);
    if (problems.length > 0) throw MemberError.fields(problems);
    const address = addressOf(c);
    await signupLimits.count(site.id, input.email, address, clock());
    await clientLimits.mail(site.id, address, clock());
    const confirmFirst = site.mail?.requireConfirmedEmail === true;
    const { password, ...profile } = input;
    // Hashed whether or not the address is taken, so the answer takes as long either way.
    const passwordHash = await passwords.hash(password);
    const taken = await store.findMemberLogin(site.id, input.email);
    if (taken && !confirmFirst) throw emailTaken();
    const now = clock();
    if (taken) {
      if (taken.status !== 'blocked') await requestSignInMail(store, site, { id: taken.memberId, email: input.email }, returnTo, 'accountExists', now);
      return mailSent(input.email);
    }
    // The new member's id is not known before the write, so the mail is made for id 0 and the
    // store writes the token with the new id (SignUpRecord's token has no memberId).
    const { token, mail } = signInMail(site, { id: 0, ...input }, returnTo, sendsNotice(site, 'welcome') ? 'welcome' : 'confirmEmail', now);
    const { siteId: _site, memberId: _member, ...tokenFields } = token;
    const session = confirmFirst ? undefined : newSession(now);
    let signedUp: Awaited<ReturnType<Store['signUpMember']>>;
    try {
      signedUp = await store.signUpMember({
        member: { siteId: site.id, ...profile, passwordHash, status: 'approved', createdAt: now },
        events: [{ eventType: 'signup', details: {}, createdAt: now }],
        // Bound to this sign-up: following it confirms the account as it is made (mail-flows.ts).
        token: { ...tokenFields, signUp: true },
        mails: [mail],
        ...(session && { session: session.fields }),
      });
    } catch (error) {
      // Lost a race with a sign-up of the same address.
      if (error instanceof ConflictError) {
        if (confirmFirst) return mailSent(input.email);
        throw emailTaken();
      }
      throw error;
    }
    if (!session) return mailSent(input.email);
    return sessionAnswer(site, (await store.getMember(site.id, signedUp.memberId))!, session.token, signedUp.session!);
  });

  // Three ways in: a password, a mailed code with its address, or a mailed link's token.
  app.post('/sites/:subdomain/sessions', async (c) => {
    const site = c.get('site');
    const body = await readObject(c.req.raw);
    if (body.token !== undefined) return signInByToken(site, body.token, c.req.raw);
    if (body.code !== undefined) return signInByCode(site, body, addressOf(c));
    const problems: Problems = [];
    const email = readEmail(body.email, problems);
    const password = readPassword(body.password, problems, false);
    const returnTo = readReturnTo(body.returnTo, site, problems);
    if (problems.length > 0) throw MemberError.fields(problems);
    await clientLimits.signIn(site.id, addressOf(c), clock());

    const login = await store.findMemberLogin(site.id, email);
    const signedIn = await throttle.attempt(site.id, email, clock, 'base', async () => {
      const valid = await passwords.verify(password, login?.passwordHash ?? (await decoy()));
      return !!login?.passwordHash && valid;
    });
    if (!login || !signedIn) throw MemberError.of(401, 'invalidCredentials', 'The e-mail or the password is wrong');
    if (login.status === 'blocked') throw MemberError.of(403, 'memberBlocked', 'This account is blocked; contact the site');
    if (site.mail?.requireConfirmedEmail === true && login.emailConfirmedAt === undefined) {
      await requestSignInMail(store, site, { id: login.memberId, email }, returnTo, 'confirmEmail', clock());
      throw MemberError.of(403, 'emailNotConfirmed', `Confirm your e-mail address first: we sent a code to ${email}`, 'email');
    }
    await recordEvent(site, login.memberId, 'login');
    const { token, session } = await openSession(store, clock, site.id, login.memberId);
    return sessionAnswer(site, (await store.getMember(site.id, login.memberId))!, token, session);
  });

  /**
   * Redeems a signIn token: a session, a `login` event, and the address confirmed when it was
   * not. The first confirmation by someone who does not show they chose the password takes the
   * password away and signs out every other session: the account may have been made in the
   * address's name by someone else (firstConfirmation in mail-flows.ts).
   */
  const redeemSignIn = async (
    site: SiteRecord,
    token: MemberTokenRecord,
    record: MemberRecord,
    refused: (reason: 'missing' | 'used' | 'expired') => MemberError,
    sameHolder: boolean,
  ) => {
    const now = clock();
    const session = newSession(now);
    const outcome = await store.redeemMemberToken(token.id, now, {
      ...firstConfirmation(record, sameHolder, now),
      session: session.fields,
      events: [{ eventType: 'login', details: {}, createdAt: now }],
    });
    if (!outcome.redeemed) throw refused(outcome.reason);
    // The sign-up's own mail, first followed on a site that signed nobody in at sign-up: the registration ends here.
    const registered = token.signUp === true && record.emailConfirmedAt === undefined && site.mail?.requireConfirmedEmail === true;
    return sessionAnswer(site, outcome.member, session.token, outcome.session!, registered);
  };
  const signInByToken = async (site: SiteRecord, value: unknown, request: Request) => {
    const token = await findToken(store, site, value, 'signIn');
    const record = await store.getMember(site.id, token.memberId);
    refuseBlocked(record);
    const now = clock();
    if (token.usedAt !== undefined) throw tokenError('used');
    if (token.expiresAt <= now) throw tokenError('expired');
    // Followed in a browser signed in as this member (the one the sign-up signed in): the same person.
    const signedInHere = record.emailConfirmedAt === undefined && bearerToken(request) !== undefined
      && (await authenticate(store, clock, site, request).then(({ member }) => member.id === record.id, () => false));
    return redeemSignIn(site, token, record, tokenError, signedInHere);
  };
  const signInByCode = async (site: SiteRecord, body: Record<string, unknown>, address: string | undefined) => {
    const problems: Problems = [];
    const email = readEmail(body.email, problems);
    const code = readCode(body.code);
    if (code === undefined) bad(problems, 'code', 'Enter the 6-digit code from the e-mail');
    if (problems.length > 0) throw MemberError.fields(problems);
    await clientLimits.signIn(site.id, address, clock());
    const login = await store.findMemberLogin(site.id, email);
    // Wrong codes are counted per address across codes, members' and strangers' alike; and any
    // code that opens nothing gets one answer, so a code tells nobody who is a member.
    let token: MemberTokenRecord | undefined;
    await codeThrottle.attempt(site.id, email, clock, 'code', async () => {
      const match = await matchCode(store, clock, site.id, login?.memberId, 'signIn', code!);
      if ('token' in match) token = match.token;
      return token !== undefined;
    });
    if (!token) throw codeRefused();
    const record = await store.getMember(site.id, token.memberId);
    refuseBlocked(record);
    // The password typed before the code (at sign-up, or a sign-in the site answered emailNotConfirmed) keeps it.
    const shown = typeof body.password === 'string' && !!login?.passwordHash && record.emailConfirmedAt === undefined
      && body.password.length <= PASSWORD_MAX && (await passwords.verify(body.password, login.passwordHash));
    return redeemSignIn(site, token, record, codeRefused, shown);
  };

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

  accountRoutes(app, { store, clock, passwords, throttle, authenticate: member });
  mailRoutes(app, {
    store, clock, passwords, throttle, authenticate: member, sessionAnswer, emailTaken,
    countMail: (c, memberId) => clientLimits.mail(c.get('site').id, addressOf(c), clock(), memberId),
  });
  billingRoutes(app, { store, clock, processor, authenticate: member });
  contentRoutes(app, { store, clock, authenticate: member });
  if (demoMailbox) demoMailboxRoute(app, store);

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
    '/sites/:subdomain/me/email/confirm': 'POST',
    '/sites/:subdomain/email-changes': 'POST',
    '/sites/:subdomain/password-reset': 'POST',
    '/sites/:subdomain/password-reset/complete': 'POST',
    '/sites/:subdomain/sign-in-codes': 'POST',
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
