/**
 * What the member API's mail flows share (issue 15, docs/member-api.md "Mail"): reading a request
 * for a mail, the member an address may be mailed as, the floor every such answer waits for, and
 * finding a mailed link's token. The flows: ./password-reset-routes, ./sign-in-code-route,
 * ./email-change-routes; sign-in by code or link is ./session-routes.
 */
import type { MemberTokenRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { readObject } from './body';
import type { MemberContext, MemberRequest } from './context';
import { MemberError } from './errors';
import { tokenError } from './mail-flows';
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
export const answerFloor = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, MAIL_ANSWER_FLOOR_MS));

/** The e-mail and the page to lead back to, from a request for a mail; counted against the client's allowance. */
export async function readMailRequest(c: MemberRequest, countMail: MemberContext['countMail']): Promise<{ email: string; returnTo: string }> {
  const body = await readObject(c.req.raw);
  const problems: Problems = [];
  const email = readEmail(body.email, problems);
  const returnTo = readReturnTo(body.returnTo, c.get('site'), problems);
  if (problems.length > 0) throw MemberError.fields(problems);
  await countMail(c);
  return { email, returnTo };
}

/** The member an address belongs to, when mail may go to them: not to a blocked one. */
export async function mailableMember(store: Store, site: SiteRecord, email: string): Promise<{ id: number; email: string } | undefined> {
  const login = await store.findMemberLogin(site.id, email);
  return login && login.status !== 'blocked' ? { id: login.memberId, email } : undefined;
}
