/**
 * A member changing their own account (issue 5's account screens): PATCH /me (names and custom
 * fields) and PUT /me/password, which asks for the current password, checked under the sign-in
 * throttle, so a stolen session cannot be used to guess it, and signs the member's other sessions
 * out. PUT /me/email, which waits for the new address to confirm, is in ./email-change-routes.
 */
import type { Context, Hono } from 'hono';
import type { MemberInfo } from '../../contract/member';
import type { PasswordHasher } from '../auth/passwords';
import type { Clock } from '../domain/clock';
import { jsonResponse } from '../http/json';
import type { MemberRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { validateAccountEdit } from './account-changes';
import { readObject } from './body';
import { MemberError } from './errors';
import type { Authenticated } from './sessions';
import type { SignInThrottle } from './sign-in-throttle';
import { bad, readPassword, type Problems } from './signup';

export interface AccountRouteDeps {
  store: Store;
  clock: Clock;
  passwords: PasswordHasher;
  throttle: SignInThrottle;
  authenticate(c: Context<{ Variables: { site: SiteRecord } }>): Promise<Authenticated>;
  memberInfo(c: Context<{ Variables: { site: SiteRecord } }>, member: MemberRecord): Promise<MemberInfo>;
}

/** The member's current password, or a 401 invalidCredentials counted as a failed sign-in. */
export async function confirmCurrentPassword(
  { store, clock, passwords, throttle }: Pick<AccountRouteDeps, 'store' | 'clock' | 'passwords' | 'throttle'>,
  site: SiteRecord,
  member: MemberRecord,
  password: string,
): Promise<void> {
  const hash = (await store.findMemberLogin(site.id, member.email))?.passwordHash;
  const valid = await throttle.attempt(site.id, member.email, clock, 'password', async () => !!hash && (await passwords.verify(password, hash)));
  if (!valid) throw MemberError.of(401, 'invalidCredentials', 'The current password is wrong', 'password');
}

export function accountRoutes(app: Hono<{ Variables: { site: SiteRecord } }>, deps: AccountRouteDeps): void {
  const { store, clock, passwords } = deps;

  const confirmPassword = (site: SiteRecord, member: MemberRecord, password: string) => confirmCurrentPassword(deps, site, member, password);

  app.patch('/sites/:subdomain/me', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const patch = validateAccountEdit(await readObject(c.req.raw), await store.listSignupFields(site.id));
    const changed = (await store.updateMember(site.id, member.id, patch)) ?? member;
    return jsonResponse(await deps.memberInfo(c, changed), 200, { 'cache-control': 'no-store' });
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
