/**
 * Shared pieces of the mail-flow suites (issue 15): reading the outbox the member API queues
 * mails in, and taking a mail apart the way a member would: the code on its own line, the link
 * on its own line, the token in the link's `svcopen` path.
 */
import { expect } from 'vitest';
import { MAIL_TOKEN_SHAPE, SIGN_IN_CODE_DIGITS, type MailSentResponse } from '../../src/contract/member';
import { issueApiKey } from '../../src/service/auth/api-keys';
import { siteMail } from '../../src/service/domain/site-mail';
import { mailedToken, sendLimits } from '../../src/service/member/mail-flows';
import type { MailRecord, MemberRecord } from '../../src/service/store/records';
import { adminRequest } from '../support/admin-request';
import { BASE, jsonOf, type MemberCtx, type RequestOptions } from './support';

/** Every mail in the outbox, oldest first (all pages). */
export async function allMail(ctx: MemberCtx): Promise<MailRecord[]> {
  const out: MailRecord[] = [];
  let afterId: number | undefined;
  for (;;) {
    const page = await ctx.store.listMail(undefined, { limit: 100, ...(afterId !== undefined && { afterId }) });
    out.push(...page.items);
    if (!page.hasMore || page.items.length === 0) return out;
    afterId = page.items.at(-1)!.id;
  }
}

/** The mails to `to` (of `kind`, when given), oldest first. */
export async function mailsTo(ctx: MemberCtx, to: string, kind?: string): Promise<MailRecord[]> {
  return (await allMail(ctx)).filter((m) => m.to === to && (kind === undefined || m.kind === kind));
}

/** The newest mail to `to`; fails the test when there is none, or when its kind is not `kind`. */
export async function lastMailTo(ctx: MemberCtx, to: string, kind?: string): Promise<MailRecord> {
  const mails = await mailsTo(ctx, to);
  expect(mails.length, `no mail to ${to}`).toBeGreaterThan(0);
  const mail = mails.at(-1)!;
  if (kind !== undefined) expect(mail.kind).toBe(kind);
  return mail;
}

/** The lines of the plain text that are a link, whole. */
export const linksIn = (mail: MailRecord): string[] => mail.text.split('\n').filter((line) => /^https?:\/\/\S+$/.test(line));

/** The lines of the plain text that are a code, whole. */
export const codesIn = (mail: MailRecord): string[] =>
  mail.text.split('\n').filter((line) => new RegExp(`^\\d{${SIGN_IN_CODE_DIGITS}}$`).test(line));

/** The mail's one code; fails the test unless there is exactly one. */
export function codeOf(mail: MailRecord): string {
  const codes = codesIn(mail);
  expect(codes, mail.text).toHaveLength(1);
  return codes[0]!;
}

/** The mail's one link; fails the test unless there is exactly one. */
export function linkOf(mail: MailRecord): string {
  const links = linksIn(mail);
  expect(links, mail.text).toHaveLength(1);
  return links[0]!;
}

/**
 * The token of the mail's one link, whose `svcopen` must be `<screen>/<token>`; the link must
 * also be in the HTML version.
 */
export function tokenOf(mail: MailRecord, screen: string): string {
  const link = linkOf(mail);
  const svcopen = new URL(link).searchParams.get('svcopen') ?? '';
  expect(svcopen.startsWith(`${screen}/`), `${link} should open ${screen}`).toBe(true);
  const token = svcopen.slice(screen.length + 1);
  expect(token).toMatch(MAIL_TOKEN_SHAPE);
  expect(mail.html ?? '').toContain(token);
  return token;
}

export const RESET_SCREEN = '/member/reset_password';
export const SIGN_IN_SCREEN = '/member/sign_in';
export const EMAIL_CONFIRM_SCREEN = '/member/account/email_confirm';

/** A POST under the demo site's member API (or `base`), JSON body. */
export const post = (ctx: MemberCtx, path: string, json: unknown, init: RequestOptions = {}, base = BASE) =>
  ctx.request(`${base}${path}`, { method: 'POST', json, ...init });

/** Checks a 202 MailSentResponse for `email` and nothing else; answers the raw text too. */
export async function expectMailSent(res: Response, email: string): Promise<string> {
  const text = await res.clone().text();
  const body = await jsonOf<MailSentResponse>(res, 202);
  expect(body).toStrictEqual({ email, mailSent: true });
  return text;
}

/** The member as the store holds it. */
export async function storedMember(ctx: MemberCtx, email: string, siteId = ctx.demo.site.id): Promise<MemberRecord | undefined> {
  const login = await ctx.store.findMemberLogin(siteId, email);
  return login && ctx.store.getMember(siteId, login.memberId);
}

/**
 * The member's events as the Admin API lists them (GET /admin/v1/memberEvents?memberId=…, with
 * a key that has `read.memberEvents`), through the client that checks answers against the
 * OpenAPI document.
 */
export async function adminMemberEvents(ctx: MemberCtx, memberId: number, siteId = ctx.demo.site.id): Promise<AdminEvent[]> {
  const { key } = await issueApiKey(ctx.store, ctx.now, { siteId, scopes: ['read.memberEvents'] });
  const res = await adminRequest<AdminEvent[]>(ctx.app, `/admin/v1/memberEvents?memberId=${memberId}`, {
    key,
    headers: { 'x-items-after': '100' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export interface AdminEvent {
  id: number;
  memberId: number;
  eventType: string;
  details: unknown;
  createdAt: string;
}

/**
 * A link of `purpose` for a member, written straight into the store as the service would have
 * queued it (no API blocks a member, so a blocked member's link is made this way); its token.
 */
export async function plantToken(ctx: MemberCtx, memberId: number, purpose: 'passwordReset' | 'signIn', lifeMs: number): Promise<string> {
  const now = ctx.now();
  const t = mailedToken(ctx.demo.site, memberId, purpose, now, lifeMs, false);
  const queued = await ctx.store.queueRequestedMail({
    mail: siteMail(ctx.demo.site, 'planted@example.com', { kind: 'passwordReset', link: 'https://demo.localhost/', minutes: 60 }, now),
    token: t.record,
    limits: sendLimits(now),
  });
  expect(queued).toBe('queued');
  return t.token;
}
