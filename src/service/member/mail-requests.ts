/**
 * What the member API's mail flows share (issue 15, docs/member-api.md "Mail"): reading a request
 * for a mail, the member an address may be mailed as, the floor every such answer waits for, and
 * finding a mailed link's token. The flows: ./password-reset-routes, ./sign-in-code-route,
 * ./email-change-routes; sign-in by code or link is ./session-routes.
 */
import type { MemberTokenRecord, NewMail, NewMemberToken, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { readObject } from './body';
import type { MemberApp, MemberContext, MemberRequest } from './context';
import { MemberError } from './errors';
import { mailSent, queueRequested, tokenError } from './mail-flows';
import { tokenHashOf } from './mail-tokens';
import { readReturnTo } from './return-to';
import { readEmail, type Problems } from './signup';

/** A mailed token of the site for `purpose`, or the error the link's holder should read. */
export async function findToken(store: Store, site: SiteRecord, value: unknown, purpose: MemberTokenRecord['purpose']): Promise<MemberTokenRecord> {
  const hash = tokenHashOf(value);
  const token = hash === undefined ? undefined : await store.findMemberToken(hash);
  if (!token || token.siteId !== site.id || token.purpose !== purpose) throw tokenError('missing');
  return token;
}

/**
 * A request for a mail answers no sooner than this after it arrived (audit, issue 26). A member's
 * address costs a store write that an unknown one does not (0.2–0.5 ms, which told members apart
 * about 80% of the time); everything else is done for both (the token, the code and the mail are
 * made either way), and this floor, far above that write, hides the rest.
 */
export const MAIL_ANSWER_FLOOR_MS = 20;

/**
 * Resolves MAIL_ANSWER_FLOOR_MS after it is called. Started as the request comes in, not measured
 * at its end: a timer set at the end for "what is left" fires on the event loop's whole
 * milliseconds, which kept part of the difference in the work.
 */
const answerFloor = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, MAIL_ANSWER_FLOOR_MS));

/** The e-mail and the page to lead back to, from a request for a mail; counted against the client's allowance. */
async function readMailRequest(c: MemberRequest, countMail: MemberContext['countMail']): Promise<{ email: string; returnTo: string }> {
  const body = await readObject(c.req.raw);
  const problems: Problems = [];
  const email = readEmail(body.email, problems);
  const returnTo = readReturnTo(body.returnTo, c.get('site'), problems);
  if (problems.length > 0) throw MemberError.fields(problems);
  await countMail(c);
  return { email, returnTo };
}

/**
 * POST `path`: a mail someone asks for (a reset link, a code), which only a member's address
 * gets, answered 202 alike for every address and after the same time (MAIL_ANSWER_FLOOR_MS).
 * `make` makes the mail and its token; it runs for an unknown address too (as member 0), whose
 * mail is then dropped: the same work but the store's write.
 */
export function mailRequestRoute(
  app: MemberApp,
  path: string,
  ctx: Pick<MemberContext, 'store' | 'clock' | 'countMail'>,
  make: (site: SiteRecord, member: { id: number; email: string }, returnTo: string, now: number) => { mail: NewMail; token: NewMemberToken },
): void {
  app.post(path, async (c) => {
    const floor = answerFloor();
    const site = c.get('site');
    const { email, returnTo } = await readMailRequest(c, ctx.countMail);
    const member = await mailableMember(ctx.store, site, email);
    const now = ctx.clock();
    const { mail, token } = make(site, member ?? { id: 0, email }, returnTo, now);
    if (member) await queueRequested(ctx.store, site, mail, token, now);
    await floor;
    return mailSent(email);
  });
}

/** The member an address belongs to, when mail may go to them: not to a blocked one. */
async function mailableMember(store: Store, site: SiteRecord, email: string): Promise<{ id: number; email: string } | undefined> {
  const login = await store.findMemberLogin(site.id, email);
  return login && login.status !== 'blocked' ? { id: login.memberId, email } : undefined;
}
