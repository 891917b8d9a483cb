/**
 * The owner's actions on the Admin API (issue 32), each under a write scope no key made before
 * it has (a key without it gets 404, as for the read scopes), each recorded as a member event
 * naming the key (service/owner/). And the ledger they act on: GET /invoices, GET /invoices/{id}.
 *
 *   POST /memberships                 memberships:write  give a plan for free (comp)  → 201 Membership
 *   POST /memberships/{id}/cancel     memberships:write  now, or at the period's end  → 200 Membership
 *   POST /invoices/{id}/refund        invoices:write     all that is left, or part    → 200 Invoice
 *                                                        (on the refunded amount read, when given)
 *   POST /members/{id}/block|unblock  members:write                                   → 200 Member
 *   GET  /members/{id}/export         members:write      everything stored about them → 200 JSON
 *   POST /members/{id}/erase          members:write      personal data removed        → 200 Member
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Scope } from '../../contract/admin';
import { parseId } from '../domain/validation';
import { jsonResponse } from '../http/json';
import type { OwnerDeps, Actor } from '../owner/actor';
import { cancelMembership } from '../owner/cancel';
import { compMembership } from '../owner/comp';
import { eraseMember } from '../owner/erase';
import { OwnerActionError } from '../owner/errors';
import { exportMember } from '../owner/export';
import { blockMember, unblockMember } from '../owner/member-status';
import { refundInvoice } from '../owner/refund';
import { type AdminEnv, requireScope } from './auth';
import { readActionBody } from './body';
import { AdminError, notFound } from './errors';
import { parseDateTime } from './params';
import { toInvoice, toMember, toMembership } from './serialize';

const positiveId = (what: string) => z.number({ error: `${what} must be a member's id, a whole number` }).int().positive();

const NoInput = z.strictObject({});
const CancelInput = z.strictObject({ when: z.enum(['now', 'periodEnd'], { error: 'when must be "now" or "periodEnd"' }) });
const CompInput = z.strictObject({
  memberId: positiveId('memberId'),
  planId: z.number({ error: 'planId must be a plan\'s id, a whole number' }).int().positive(),
  expiresAt: z
    .string({ error: 'expiresAt must be a date-time such as 2027-01-31T00:00:00Z' })
    .transform((text, ctx) => {
      const at = parseDateTime(text);
      if (at !== undefined) return at;
      ctx.addIssue({ code: 'custom', message: `expiresAt must be an RFC 3339 date-time, got ${JSON.stringify(text.slice(0, 40))}` });
      return z.NEVER;
    })
    .optional(),
});
const RefundInput = z.strictObject({
  amountCents: z.number({ error: 'amountCents must be a whole number of the currency\'s minor units' }).int().positive().optional(),
  expectedRefundedCents: z
    .number({ error: 'expectedRefundedCents must be the invoice\'s refundedCents as read, a whole number (0 when none)' })
    .int()
    .nonnegative()
    .optional(),
});

const STATUS_OF: Record<OwnerActionError['kind'], [number, 'notFound' | 'invalidBody' | 'conflict' | 'processorError']> = {
  notFound: [404, 'notFound'],
  invalid: [400, 'invalidBody'],
  conflict: [409, 'conflict'],
  processor: [502, 'processorError'],
};

/** Runs the action; a refusal becomes the spec's error body, and nothing changed. */
async function act<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof OwnerActionError)) throw error;
    const [status, code] = STATUS_OF[error.kind];
    throw AdminError.of(status, code, error.message, error.field);
  }
}

/** The path's id, or 404: an id that cannot exist is not found, as GET /plans/{id} answers. */
function pathId(c: Context<AdminEnv>): number {
  const id = parseId(c.req.param('id') ?? '');
  if (id === undefined) throw notFound();
  return id;
}

/** The key's scope is checked first: a key without it learns nothing, not even that the resource exists. */
function asKey(c: Context<AdminEnv>, scope: Scope): Actor {
  const key = c.get('key');
  requireScope(key, scope);
  return { apiKeyId: key.id };
}

export function ownerRoutes(app: Hono<AdminEnv>, deps: OwnerDeps): void {
  app.post('/memberships', async (c) => {
    const by = asKey(c, 'memberships:write');
    const input = await readActionBody(c.req.raw, CompInput);
    const membership = await act(() => compMembership(deps, c.get('site'), input, by));
    return jsonResponse(toMembership(membership), 201);
  });
  app.post('/memberships/:id/cancel', async (c) => {
    const by = asKey(c, 'memberships:write');
    const id = pathId(c);
    const { when } = await readActionBody(c.req.raw, CancelInput);
    return jsonResponse(toMembership(await act(() => cancelMembership(deps, c.get('site'), id, when, by))));
  });
  app.post('/invoices/:id/refund', async (c) => {
    const by = asKey(c, 'invoices:write');
    const id = pathId(c);
    const ask = await readActionBody(c.req.raw, RefundInput);
    return jsonResponse(toInvoice(await act(() => refundInvoice(deps, c.get('site'), id, ask, by))));
  });
  app.get('/invoices/:id', async (c) => {
    requireScope(c.get('key'), 'read.invoices');
    const invoice = await deps.store.getInvoice(c.get('site').id, pathId(c));
    if (!invoice) throw notFound();
    return jsonResponse(toInvoice(invoice));
  });
  for (const [action, run] of [
    ['block', blockMember],
    ['unblock', unblockMember],
    ['erase', eraseMember],
  ] as const) {
    app.post(`/members/:id/${action}`, async (c) => {
      const by = asKey(c, 'members:write');
      const id = pathId(c);
      await readActionBody(c.req.raw, NoInput);
      return jsonResponse(toMember(await act(() => run(deps, c.get('site'), id, by))));
    });
  }
  app.get('/members/:id/export', async (c) => {
    const by = asKey(c, 'members:write');
    const id = pathId(c);
    // HEAD hands nothing out: it neither builds the document nor records an export.
    if (c.req.method === 'HEAD') {
      if (!(await deps.store.getMember(c.get('site').id, id))) throw notFound();
      return jsonResponse({}, 200, { 'content-disposition': `attachment; filename="member-${id}.json"` });
    }
    const document = await act(() => exportMember(deps, c.get('site'), id, by));
    return jsonResponse(document, 200, { 'content-disposition': `attachment; filename="member-${id}.json"` });
  });
}
