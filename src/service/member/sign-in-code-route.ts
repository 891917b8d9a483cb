/** A sign-in code by mail (POST /sign-in-codes): to a member's address only, answered alike for every address. */
import type { MemberApp, MemberContext } from './context';
import { signInMail } from './mail-flows';
import { mailRequestRoute } from './mail-requests';

export function signInCodeRoute(app: MemberApp, ctx: Pick<MemberContext, 'store' | 'clock' | 'countMail'>): void {
  mailRequestRoute(app, '/sites/:subdomain/sign-in-codes', ctx, (site, member, returnTo, now) => signInMail(site, member, returnTo, 'signInCode', now));
}
