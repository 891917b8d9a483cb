/** A sign-in code by mail (POST /sign-in-codes): to a member's address only, answered alike for every address. */
import { mailSent, queueRequested, signInMail } from './mail-flows';
import type { MemberApp, MemberContext } from './context';
import { answerFloor, mailableMember, readMailRequest } from './mail-requests';

export function signInCodeRoute(app: MemberApp, ctx: Pick<MemberContext, 'store' | 'clock' | 'countMail'>): void {
  const { store, clock } = ctx;

  app.post('/sites/:subdomain/sign-in-codes', async (c) => {
    const floor = answerFloor();
    const site = c.get('site');
    const { email, returnTo } = await readMailRequest(c, ctx.countMail);
    const member = await mailableMember(store, site, email);
    const now = clock();
    // Made for an unknown address too (member 0), and dropped: the same work but the write.
    const { token, mail } = signInMail(site, member ?? { id: 0, email }, returnTo, 'signInCode', now);
    if (member) await queueRequested(store, site, mail, token, now);
    await floor;
    return mailSent(email);
  });
}
