/**
 * A member changing their own account (issue 5's account screens): PATCH /me (names and custom
 * fields), PUT /me/email and PUT /me/password. Both of the latter ask for the current password,
 * checked under the sign-in throttle, so a stolen session cannot be used to guess it, and both
 * sign the member's other sessions out.
 */
import type { Context, Hono } from 'hono';
import type { PasswordHasher } from '../auth/passwords';
import type { Clock } from '../domain/clock';
import { jsonResponse } from '../http/json';
import { ConflictError } from '../store/errors';
import type { MemberRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { validateAccountEdit } from './account-changes';
import { readObject } from './body';
import { MemberError } from './errors';
import { loadMemberInfo } from './member-info';
import type { Authenticated } from './sessions';
import type { SignInThrottle } from './sign-in-throttle';
import { bad, readEmail, readPassword, type Problems } from './signup';

export interface AccountRouteDeps {
  store: Store;
  clock: Clock;
  passwords: PasswordHasher;
  throttle: SignInThrottle;
  authenticate(c: Context<{ Variables: { site: SiteRecord } }>): Promise<Authenticated>;
  emailTaken(): MemberError;
}

export function accountRoutes(app: Hono<{ Variables: { site: SiteRecord } }>, deps: AccountRouteDeps): void {
  const { store, clock, passwords, throttle } = deps;
  const answer = async (site: SiteRecord, member: MemberRecord) =>
    jsonResponse(await loadMemberInfo(store, site, member, clock()), 200, { 'cache-control': 'no-store' });

  /** The member's current password, or a 401 invalidCredentials counted as a failed sign-in. */
  const confirmPassword = async (site: SiteRecord, member: MemberRecord, password: string) => {
    const hash = (await store.findMemberLogin(site.id, member.email))?.passwordHash;
    const valid = await throttle.attempt(`${site.id}\n${member.email}`, clock, 'password', async () => !!hash && (await passwords.verify(password, hash)));
    if (!valid) throw MemberError.of(401, 'invalidCredentials', 'The current password is wrong', 'password');
  };

  app.patch('/sites/:subdomain/me', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const patch = validateAccountEdit(await readObject(c.req.raw), await store.listSignupFields(site.id));
    return answer(site, (await store.updateMember(site.id, member.id, patch)) ?? member);
  });

  app.put('/sites/:subdomain/me/email', async (c) => {
    const site = c.get('site');
    const { member, session } = await deps.authenticate(c);
    const body = await readObject(c.req.raw);
    const problems: Problems = [];
    const email = readEmail(body.email, problems);
    const password = readPassword(body.password, problems, false);
    if (problems.length > 0) throw MemberError.fields(problems);
    await confirmPassword(site, member, password);
    if (email === member.email) return answer(site, member);
    let changed: MemberRecord;
    try {
      changed = (await store.updateMember(site.id, member.id, { email })) ?? member;
    } catch (error) {
      if (error instanceof ConflictError) throw deps.emailTaken();
      throw error;
    }
    // The login moved: whoever else holds a session of this member is signed out, as after a
    // password change; this session stays.
    await store.revokeMemberSessions(site.id, member.id, clock(), session.tokenHash);
    return answer(site, changed);
  });

  app.put('/sites/:subdomain/me/password', async (c) => {
    const site = c.get('site');
    const { member, session } = await deps.authenticate(c);
    const body = await readObject(c.req.raw);
    const problems: Problems = [];
    const password = readPassword(body.password, problems, false);
    const fresh: Problems = [];
    const newPassword = readPassword(body.newPassword, fresh, true);
    for (const problem of fresh) bad(problems, 'newPassword', problem.message);
    if (problems.length > 0) throw MemberError.fields(problems);
    await confirmPassword(site, member, password);
    await store.updateMember(site.id, member.id, { passwordHash: await passwords.hash(newPassword) });
    // Whoever else holds a session of this member (another device, or a thief) is signed out.
    await store.revokeMemberSessions(site.id, member.id, clock(), session.tokenHash);
    return new Response(null, { status: 204 });
  });
}
