/**
 * Sign-up (POST /members): a new member, signed in at once on most sites, with the mail that
 * confirms the address (decision 0024); limited per e-mail and per client address.
 */
import { sendsNotice } from '../domain/site-mail';
import { ConflictError } from '../store/errors';
import type { Store } from '../store/store';
import { readObject } from './body';
import type { MemberApp, MemberContext } from './context';
import { MemberError } from './errors';
import { mailSent, requestSignInMail, signInMail } from './mail-flows';
import { readReturnTo } from './return-to';
import { newSession } from './sessions';
import { validateSignUp, type Problems } from './signup';

export function signupRoute(app: MemberApp, ctx: MemberContext): void {
  const { store, clock, passwords, signupLimits, clientLimits, addressOf, sessionAnswer, emailTaken } = ctx;

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
    // Without a password, the mailed code is the way in: signed in once it is shown, as on a site
    // that asks every address to be confirmed first (and a taken address is answered alike).
    const confirmFirst = site.mail?.requireConfirmedEmail === true || input.password === undefined;
    const { password, ...profile } = input;
    // Hashed whether or not the address is taken, so the answer takes as long either way.
    const passwordHash = password === undefined ? undefined : await passwords.hash(password);
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
        member: { siteId: site.id, ...profile, ...(passwordHash && { passwordHash }), status: 'approved', createdAt: now },
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
    return sessionAnswer(c, (await store.getMember(site.id, signedUp.memberId))!, session.token, signedUp.session!);
  });
}
