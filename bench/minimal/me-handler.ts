/**
 * The minimal GET /me: the session by its token's SHA-256 (node:crypto), then the member with what
 * MemberInfo holds (memberships and their plans, the site's sign-up fields, the member's values)
 * as the same JSON; 401 without a live session. ./me-server.ts serves it.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { initialsAvatar } from '../../src/service/member/avatar';
import type { Handler } from './serve';
import { fail } from './serve';
import type { FieldRow, MembershipRow, MeRows, Source } from './source';

const WIDGET_TYPES: Record<string, string> = {
  free: 'free',
  oneTimePayment: 'one_time_payment',
  multiPayment: 'multi_payment',
  subscription: 'subscription',
};
const iso = (ms: number) => new Date(ms).toISOString();

function membership(r: MembershipRow, home: string, now: number) {
  const [id, planId, publicPlanId, type, status, createdAt, expiresAt, cancelsAt, billingPeriodEnd, paymentFailure, name, welcomeUrl, contentUrl] = r;
  return {
    id,
    planId,
    publicPlanId,
    name,
    type: WIDGET_TYPES[type],
    createdAt: iso(createdAt),
    status: status === 'active' && expiresAt !== null && expiresAt <= now ? 'expired' : status,
    ...(expiresAt !== null && type !== 'subscription' && { expiresOn: iso(expiresAt) }),
    ...(cancelsAt !== null && type === 'subscription' && { cancelsOn: iso(cancelsAt) }),
    ...(billingPeriodEnd !== null && (type === 'subscription' || type === 'multiPayment') && { billingPeriodEnd: iso(billingPeriodEnd) }),
    paymentFailure: paymentFailure === 1,
    welcomeUrl: welcomeUrl ?? home,
    contentUrl: contentUrl ?? home,
  };
}

function field([id, type, required, options]: FieldRow, text: string | undefined) {
  const value: unknown = text === undefined ? undefined : JSON.parse(text);
  const common = { id, type, required: required === 1 };
  const choices = options === null ? [] : (JSON.parse(options) as string[]);
  if (type === 'checkbox') return { ...common, value: value === true };
  if (type === 'multiple-select') return { ...common, value: Array.isArray(value) ? value : [], options: choices };
  if (type === 'select') return { ...common, value: typeof value === 'string' ? value : '', options: choices };
  return { ...common, value: typeof value === 'string' ? value : '' };
}

function answer(res: ServerResponse, rows: MeRows | undefined, home: string, now: number): void {
  if (!rows || rows.member[5] === 'blocked') {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"errors":[{"path":"base","code":"unauthenticated","message":"Sign in first"}]}');
    return;
  }
  const [id, email, first, last, image] = rows.member;
  const firstName = first ?? '';
  const lastName = last ?? '';
  const name = [firstName, lastName].filter(Boolean).join(' ');
  const valueOf = new Map(rows.values);
  const body = JSON.stringify({
    id,
    name,
    firstName,
    lastName,
    email,
    profileImageUrl: image ?? initialsAvatar(name || email),
    memberships: rows.memberships.map((m) => membership(m, home, now)),
    customSignupFields: rows.fields.map((f) => field(f, valueOf.get(f[0]))),
  });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body);
}

export function meHandler(source: Source): Handler {
  const home = `https://${source.site.domain}/`;
  return (req, res) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const now = Date.now();
    const rows = token === undefined ? undefined : source.me(createHash('sha256').update(token).digest('hex'), now);
    if (!(rows instanceof Promise)) answer(res, rows, home, now);
    else rows.then((r) => answer(res, r, home, now), (error: unknown) => fail(res, error));
  };
}
