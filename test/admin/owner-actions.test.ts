/**
 * The owner's actions on the Admin API (issue 32): cancel, comp, refund, block and unblock,
 * export and erase, each under its write scope and recorded as a member event naming the key;
 * and the ledger they act on (GET /invoices). Every answer is held against the OpenAPI document
 * (adminRequest), and every action is checked by what the API then reports.
 */
import { expect, test } from 'vitest';
import { READ_SCOPES, SCOPES, WRITE_SCOPES, type Scope } from '../../src/contract/admin';
import { openSession } from '../../src/service/member/sessions';
import type { InvoiceRecord, MembershipRecord } from '../../src/service/store/records';
import { adminRequest } from '../support/admin-request';
import { DAY, forEachStore, useAdminFixture, type AdminFixture } from '../support/admin-fixture';

/** The demo site's rows the tests act on, each used by one test only (the fixture is shared by the file). */
function pick<T>(rows: T[], used: Set<T>, wanted: (row: T) => boolean): T {
  const row = rows.find((r) => !used.has(r) && wanted(r));
  if (!row) throw new Error('the demo data has no such row left');
  used.add(row);
  return row;
}

async function memberEvents(fx: AdminFixture, memberId: number) {
  const res = await adminRequest<any[]>(fx.app, `/admin/v1/memberEvents?memberId=${memberId}`, { key: fx.keys.demo.all, headers: { 'x-items-after': '100' } });
  return res.body;
}

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);
  const usedMemberships = new Set<MembershipRecord>();
  const usedInvoices = new Set<InvoiceRecord>();
  const usedMembers = new Set<number>();
  const memberships = async (fx: AdminFixture) => (await fx.store.listMemberships(fx.demo.id, { status: 'active' }, { limit: 10_000 })).items;
  const paidInvoices = async (fx: AdminFixture) => (await fx.store.listInvoices(fx.demo.id, { status: 'paid' }, { limit: 10_000 })).items;
  /** A demo member no other test touched, with an active membership (so erase has something to end). */
  const freshMember = async (fx: AdminFixture) => {
    const m = await pick(await memberships(fx), usedMemberships, (m) => !usedMembers.has(m.memberId));
    usedMembers.add(m.memberId);
    return m.memberId;
  };

  test('every action needs its write scope: a key with every other scope is answered 404 and nothing changes', async () => {
    const fx = fixture();
    const membership = (await memberships(fx))[0]!;
    const invoice = (await paidInvoices(fx))[0]!;
    const actions: Array<[Scope, string, string, unknown]> = [
      ['memberships:write', 'POST', `/admin/v1/memberships/${membership.id}/cancel`, { when: 'now' }],
      ['memberships:write', 'POST', '/admin/v1/memberships', { memberId: membership.memberId, planId: membership.planId }],
      ['invoices:write', 'POST', `/admin/v1/invoices/${invoice.id}/refund`, {}],
      ['members:write', 'POST', `/admin/v1/members/${membership.memberId}/block`, undefined],
      ['members:write', 'POST', `/admin/v1/members/${membership.memberId}/unblock`, undefined],
      ['members:write', 'POST', `/admin/v1/members/${membership.memberId}/erase`, undefined],
      ['members:write', 'GET', `/admin/v1/members/${membership.memberId}/export`, undefined],
    ];
    const before = { membership: await fx.store.getMembership(fx.demo.id, membership.id), invoice: await fx.store.getInvoice(fx.demo.id, invoice.id), member: await fx.store.getMember(fx.demo.id, membership.memberId) };
    for (const [scope, method, path, body] of actions) {
      for (const key of [fx.keys.demo.allBut[scope], fx.keys.demo.none, fx.keys.demo.only['read.members']]) {
        const res = await adminRequest(fx.app, path, { key, method, ...(body !== undefined && { body }) });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.errors[0].code).toBe('notFound');
      }
      // The other site's key with every scope does not reach the demo site's rows either.
      const other = await adminRequest(fx.app, path, { key: fx.keys.other.all, method, ...(body !== undefined && { body }) });
      expect(other.status, `other site: ${method} ${path}`).toBe(404);
    }
    expect(await fx.store.getMembership(fx.demo.id, membership.id)).toEqual(before.membership);
    expect(await fx.store.getInvoice(fx.demo.id, invoice.id)).toEqual(before.invoice);
    expect(await fx.store.getMember(fx.demo.id, membership.memberId)).toEqual(before.member);
  });

  test('the scopes: the spec\'s read scopes, read.invoices, and three write scopes', () => {
    expect(READ_SCOPES).toEqual(['read.plans', 'read.memberships', 'read.members', 'read.memberEvents', 'read.contentViews', 'read.invoices']);
    expect(WRITE_SCOPES).toEqual(['members:write', 'memberships:write', 'invoices:write']);
    expect(SCOPES).toEqual([...READ_SCOPES, ...WRITE_SCOPES]);
  });

  test('cancel now: the membership is cancelled at once, the API reports it, and the event names the key', async () => {
    const fx = fixture();
    const m = await pick(await memberships(fx), usedMemberships, (m) => m.type === 'subscription' && m.billingPeriodEnd !== undefined);
    usedMembers.add(m.memberId);
    const res = await adminRequest(fx.app, `/admin/v1/memberships/${m.id}/cancel`, { key: fx.keys.demo.all, body: { when: 'now' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: m.id, status: 'cancelled', cancelsOn: new Date(fx.clock()).toISOString() });
    expect(res.body.billing).toBeUndefined();
    const listed = await adminRequest<any[]>(fx.app, `/admin/v1/memberships?memberId=${m.memberId}`, { key: fx.keys.demo.all });
    expect(listed.body.find((x) => x.id === m.id).status).toBe('cancelled');
    const events = await memberEvents(fx, m.memberId);
    const event = events.filter((e) => e.eventType === 'cancellation').at(-1);
    expect(event.details).toMatchObject({ membershipId: m.id, planId: m.planId, when: 'now', by: { apiKeyId: expect.any(Number) } });
    // Again: nothing to cancel.
    const again = await adminRequest(fx.app, `/admin/v1/memberships/${m.id}/cancel`, { key: fx.keys.demo.all, body: { when: 'now' } });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('conflict');
  });

  test('cancel at the period\'s end: a running subscription stops renewing and stays active; other memberships cannot', async () => {
    const fx = fixture();
    const sub = await pick(await memberships(fx), usedMemberships, (m) => m.type === 'subscription' && m.billingPeriodEnd !== undefined && m.cancelsAt === undefined);
    usedMembers.add(sub.memberId);
    const res = await adminRequest(fx.app, `/admin/v1/memberships/${sub.id}/cancel`, { key: fx.keys.demo.all, body: { when: 'periodEnd' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', cancelsOn: new Date(sub.billingPeriodEnd!).toISOString() });
    // Asked again, it is answered as it is, and recorded once.
    const again = await adminRequest(fx.app, `/admin/v1/memberships/${sub.id}/cancel`, { key: fx.keys.demo.all, body: { when: 'periodEnd' } });
    expect(again.status).toBe(200);
    expect((await memberEvents(fx, sub.memberId)).filter((e) => e.eventType === 'cancellation' && e.details.membershipId === sub.id)).toHaveLength(1);

    const free = await pick(await memberships(fx), usedMemberships, (m) => m.type === 'free');
    const refused = await adminRequest(fx.app, `/admin/v1/memberships/${free.id}/cancel`, { key: fx.keys.demo.all, body: { when: 'periodEnd' } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].path).toBe('when');
    expect(await fx.store.getMembership(fx.demo.id, free.id)).toEqual(free);
  });

  test('comp: a plan given for free is active, never billed, marked comp, and counted on its plan', async () => {
    const fx = fixture();
    const memberId = await freshMember(fx);
    const plans = (await fx.store.listPlans(fx.demo.id, { statuses: ['enabled'] }, { limit: 100 })).items;
    const held = new Set((await fx.store.listMembershipsOfMember(fx.demo.id, memberId)).filter((m) => m.status === 'active').map((m) => m.planId));
    const plan = plans.find((p) => p.type === 'subscription' && !held.has(p.id))!;
    const countBefore = (await adminRequest(fx.app, `/admin/v1/plans/${plan.id}`, { key: fx.keys.demo.all })).body.activeMemberCount;
    const expiresAt = new Date(fx.clock() + 30 * DAY).toISOString();
    const res = await adminRequest(fx.app, '/admin/v1/memberships', { key: fx.keys.demo.all, body: { memberId, planId: plan.id, expiresAt } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ memberId, planId: plan.id, status: 'active', type: 'subscription', comp: true, expiresOn: expiresAt });
    expect(res.body.billing).toBeUndefined();
    const plan2 = await adminRequest(fx.app, `/admin/v1/plans/${plan.id}`, { key: fx.keys.demo.all });
    expect(plan2.body.activeMemberCount).toBe(countBefore + 1);
    const event = (await memberEvents(fx, memberId)).filter((e) => e.eventType === 'membershipComped').at(-1);
    expect(event.details).toMatchObject({ membershipId: res.body.id, planId: plan.id, expiresAt, by: { apiKeyId: expect.any(Number) } });
    // The member's own view: the plan is theirs, with nothing to pay.
    const { token } = await openSession(fx.store, fx.clock, fx.demo.id, memberId);
    const me = await fx.app.request('/member/v1/sites/demo/me', { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    const info = (await me.json()) as { memberships: { planId: number; status: string; billingPeriodEnd?: string }[] };
    expect(info.memberships).toContainEqual(expect.objectContaining({ planId: plan.id, status: 'active' }));
    expect(info.memberships.find((m) => m.planId === plan.id)?.billingPeriodEnd).toBeUndefined();
    // The same plan again while it is active: refused, nothing added.
    const again = await adminRequest(fx.app, '/admin/v1/memberships', { key: fx.keys.demo.all, body: { memberId, planId: plan.id } });
    expect(again.status).toBe(409);
    expect((await fx.store.listMembershipsOfMember(fx.demo.id, memberId)).filter((m) => m.comp)).toHaveLength(1);
  });

  test('comp refuses what it cannot give, naming the field, and adds nothing', async () => {
    const fx = fixture();
    const memberId = (await memberships(fx))[0]!.memberId;
    const planId = (await fx.store.listPlans(fx.demo.id, { statuses: ['enabled'] }, { limit: 1 })).items[0]!.id;
    const count = async () => (await fx.store.listMemberships(fx.demo.id, {}, { limit: 100_000 })).items.length;
    const before = await count();
    const cases: Array<[unknown, number, string]> = [
      [{ memberId, planId, expiresAt: new Date(fx.clock() - DAY).toISOString() }, 400, 'expiresAt'],
      [{ memberId, planId, expiresAt: 'tomorrow' }, 400, 'expiresAt'],
      [{ memberId, planId: 999_999 }, 404, 'planId'],
      [{ memberId: 999_999, planId }, 404, 'memberId'],
      [{ memberId: String(memberId), planId }, 400, 'memberId'],
      [{ planId }, 400, 'memberId'],
      [{ memberId, planId, extra: 1 }, 400, 'base'],
    ];
    for (const [body, status, path] of cases) {
      const res = await adminRequest(fx.app, '/admin/v1/memberships', { key: fx.keys.demo.all, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (path !== 'base') expect(res.body.errors.map((e: any) => e.path), JSON.stringify(body)).toContain(path);
    }
    // Another site's plan is not found either.
    const otherPlan = (await fx.store.listPlans(fx.other.id, { statuses: ['enabled'] }, { limit: 1 })).items[0]!;
    expect((await adminRequest(fx.app, '/admin/v1/memberships', { key: fx.keys.demo.all, body: { memberId, planId: otherPlan.id } })).status).toBe(404);
    expect(await count()).toBe(before);
  });

  test('refund: part, then the rest; the invoice says how much, the ledger and events follow, and more is refused', async () => {
    const fx = fixture();
    const invoice = await pick(await paidInvoices(fx), usedInvoices, (i) => i.totalCents >= 300);
    const path = `/admin/v1/invoices/${invoice.id}/refund`;
    const part = await adminRequest(fx.app, path, { key: fx.keys.demo.all, body: { amountCents: 100 } });
    expect(part.status).toBe(200);
    expect(part.body).toMatchObject({ id: invoice.id, status: 'paid', refundedCents: 100, totalCents: invoice.totalCents });
    const tooMuch = await adminRequest(fx.app, path, { key: fx.keys.demo.all, body: { amountCents: invoice.totalCents } });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors[0]).toMatchObject({ code: 'invalidBody', path: 'amountCents' });
    const rest = await adminRequest(fx.app, path, { key: fx.keys.demo.all, body: {} });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ status: 'refunded', refundedCents: invoice.totalCents });
    const again = await adminRequest(fx.app, path, { key: fx.keys.demo.all, body: {} });
    expect(again.status).toBe(409);
    const listed = await adminRequest<any[]>(fx.app, `/admin/v1/invoices?memberId=${invoice.memberId}&status=refunded`, { key: fx.keys.demo.all });
    expect(listed.body.map((i) => i.id)).toContain(invoice.id);
    const one = await adminRequest(fx.app, `/admin/v1/invoices/${invoice.id}`, { key: fx.keys.demo.only['read.invoices'] });
    expect(one.body).toEqual(rest.body);
    const refunds = (await memberEvents(fx, invoice.memberId)).filter((e) => e.eventType === 'paymentRefunded' && e.details.chargeId === invoice.processorChargeId);
    expect(refunds.map((e) => e.details.partial)).toEqual(['true', undefined]);
    expect(refunds.every((e) => typeof e.details.by.apiKeyId === 'number')).toBe(true);
  });

  test('two refunds of one invoice at once refund it once', async () => {
    const fx = fixture();
    const invoice = await pick(await paidInvoices(fx), usedInvoices, () => true);
    const path = `/admin/v1/invoices/${invoice.id}/refund`;
    const answers = await Promise.all(Array.from({ length: 4 }, () => adminRequest(fx.app, path, { key: fx.keys.demo.all, body: {} })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    const after = (await fx.store.getInvoice(fx.demo.id, invoice.id))!;
    expect(after).toMatchObject({ status: 'refunded', refundedCents: invoice.totalCents });
    const refunds = (await memberEvents(fx, invoice.memberId)).filter((e) => e.eventType === 'paymentRefunded' && e.details.chargeId === invoice.processorChargeId);
    expect(refunds).toHaveLength(1);
  });

  test('a refund on the refunded amount it read: a retry of a partial refund whose answer was lost refunds nothing more', async () => {
    const fx = fixture();
    const invoice = await pick(await paidInvoices(fx), usedInvoices, (i) => i.totalCents >= 300);
    const path = `/admin/v1/invoices/${invoice.id}/refund`;
    const ask = { amountCents: 100, expectedRefundedCents: 0 };
    const first = await adminRequest(fx.app, path, { key: fx.keys.demo.all, body: ask });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ refundedCents: 100 });
    // The same request again, as a client sends it when the first answer was lost.
    const retry = await adminRequest(fx.app, path, { key: fx.keys.demo.all, body: ask });
    expect(retry.status).toBe(409);
    expect(retry.body.errors[0]).toMatchObject({ code: 'conflict', message: expect.stringContaining(`Invoice ${invoice.id} has 100 refunded now, not 0 as expected`) });
    expect((await fx.store.getInvoice(fx.demo.id, invoice.id))!.refundedCents).toBe(100);
    // Asked on what the ledger says now, it refunds.
    const next = await adminRequest(fx.app, path, { key: fx.keys.demo.all, body: { amountCents: 100, expectedRefundedCents: 100 } });
    expect(next.body).toMatchObject({ refundedCents: 200 });
    const refunds = (await memberEvents(fx, invoice.memberId)).filter((e) => e.eventType === 'paymentRefunded' && e.details.chargeId === invoice.processorChargeId);
    expect(refunds).toHaveLength(2);
    // Not an amount: refused as the body it is, and nothing moves.
    for (const bad of [-1, 1.5, '100']) {
      const res = await adminRequest(fx.app, path, { key: fx.keys.demo.all, body: { expectedRefundedCents: bad } });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.errors[0].code).toBe('invalidBody');
    }
    expect((await fx.store.getInvoice(fx.demo.id, invoice.id))!.refundedCents).toBe(200);
  });

  test('a failed invoice cannot be refunded', async () => {
    const fx = fixture();
    const failed = (await fx.store.listInvoices(fx.demo.id, { status: 'failed' }, { limit: 1 })).items[0]!;
    const res = await adminRequest(fx.app, `/admin/v1/invoices/${failed.id}/refund`, { key: fx.keys.demo.all, body: {} });
    expect(res.status).toBe(409);
    expect(await fx.store.getInvoice(fx.demo.id, failed.id)).toEqual(failed);
  });

  test('block signs the member out everywhere and keeps them out; unblock lets them back', async () => {
    const fx = fixture();
    const memberId = await freshMember(fx);
    const { token } = await openSession(fx.store, fx.clock, fx.demo.id, memberId);
    const me = () => fx.app.request(`/member/v1/sites/demo/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);
    const blocked = await adminRequest(fx.app, `/admin/v1/members/${memberId}/block`, { key: fx.keys.demo.all, method: 'POST' });
    expect(blocked.status).toBe(200);
    expect(blocked.body.status).toBe('blocked');
    expect((await me()).status).toBe(401);
    const listed = await adminRequest<any[]>(fx.app, `/admin/v1/members?status=blocked`, { key: fx.keys.demo.all, headers: { 'x-items-after': '100' } });
    expect(listed.body.map((m) => m.id)).toContain(memberId);
    expect((await memberEvents(fx, memberId)).filter((e) => e.eventType === 'memberBlocked').at(-1).details).toMatchObject({ sessionsEnded: 1 });
    // Blocking again changes and records nothing.
    await adminRequest(fx.app, `/admin/v1/members/${memberId}/block`, { key: fx.keys.demo.all, method: 'POST' });
    expect((await memberEvents(fx, memberId)).filter((e) => e.eventType === 'memberBlocked')).toHaveLength(1);
    // A new session of a blocked member is refused too.
    const second = await openSession(fx.store, fx.clock, fx.demo.id, memberId);
    expect((await fx.app.request(`/member/v1/sites/demo/me`, { headers: { authorization: `Bearer ${second.token}` } })).status).toBe(401);

    const unblocked = await adminRequest(fx.app, `/admin/v1/members/${memberId}/unblock`, { key: fx.keys.demo.all, method: 'POST' });
    expect(unblocked.body.status).toBe('approved');
    const third = await openSession(fx.store, fx.clock, fx.demo.id, memberId);
    expect((await fx.app.request(`/member/v1/sites/demo/me`, { headers: { authorization: `Bearer ${third.token}` } })).status).toBe(200);
  });

  test('export: everything stored about the member, no secret, and the export is recorded', async () => {
    const fx = fixture();
    const memberId = await freshMember(fx);
    await fx.store.updateMemberMetadata(fx.demo.id, memberId, () => ({ theme: 'dark' }));
    // Mail to the address of the time: the present one, and one an e-mail change left behind; not another member's.
    const current = (await fx.store.getMember(fx.demo.id, memberId))!.email;
    await fx.store.createMemberEvents([{ siteId: fx.demo.id, memberId, eventType: 'emailChanged', details: { from: 'before@example.com', to: current }, createdAt: fx.clock() }]);
    const mail = (to: string, subject: string) => ({ siteId: fx.demo.id, kind: 'welcome', to, subject, text: 'Hello', createdAt: fx.clock() });
    await fx.store.queueMail([mail(current, 'Now'), mail('before@example.com', 'Before'), mail('someone-else@example.com', 'Not theirs')]);
    const res = await adminRequest(fx.app, `/admin/v1/members/${memberId}/export`, { key: fx.keys.demo.only['members:write'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="member-${memberId}.json"`);
    const member = (await fx.store.getMember(fx.demo.id, memberId))!;
    expect(res.body.member).toMatchObject({ id: memberId, email: member.email });
    expect(res.body.metadata).toEqual({ theme: 'dark' });
    expect(res.body.memberships.map((m: any) => m.id)).toEqual((await fx.store.listMembershipsOfMember(fx.demo.id, memberId)).map((m) => m.id));
    expect(res.body.invoices).toHaveLength((await fx.store.listInvoicesOfMember(fx.demo.id, memberId)).length);
    expect(res.body.events.length).toBeGreaterThan(0);
    expect(res.body.mails.map((m: { subject: string }) => m.subject).sort()).toEqual(['Before', 'Now']);
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|\$|tokenHash|password/i);
    expect((await memberEvents(fx, memberId)).filter((e) => e.eventType === 'memberExported').at(-1).details.by).toEqual({ apiKeyId: expect.any(Number) });
    // HEAD hands nothing out, and records no export.
    const head = await adminRequest(fx.app, `/admin/v1/members/${memberId}/export`, { key: fx.keys.demo.all, method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBeUndefined();
    expect((await memberEvents(fx, memberId)).filter((e) => e.eventType === 'memberExported')).toHaveLength(1);
  });

  test('erase: personal data gone, memberships ended, the processor\'s customer deleted, the ledger kept with no person in it', async () => {
    const fx = fixture();
    const memberId = await freshMember(fx);
    const member = (await fx.store.getMember(fx.demo.id, memberId))!;
    await fx.store.updateMemberMetadata(fx.demo.id, memberId, () => ({ secret: 'mine' }));
    await openSession(fx.store, fx.clock, fx.demo.id, memberId);
    const invoicesBefore = await fx.store.listInvoicesOfMember(fx.demo.id, memberId);

    const res = await adminRequest(fx.app, `/admin/v1/members/${memberId}/erase`, { key: fx.keys.demo.all, method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: memberId, email: `erased-${memberId}@erased.invalid`, status: 'erased', createdAt: new Date(member.createdAt).toISOString() });

    const byEmail = await adminRequest<any[]>(fx.app, `/admin/v1/members?email=${encodeURIComponent(member.email)}`, { key: fx.keys.demo.all });
    expect(byEmail.body).toEqual([]);
    const after = (await fx.store.getMember(fx.demo.id, memberId))!;
    expect(after.firstName).toBeUndefined();
    expect(after.processorCustomerId).toBeUndefined();
    expect(await fx.store.getMemberMetadata(fx.demo.id, memberId)).toEqual({});
    expect(await fx.store.listSignupValues(fx.demo.id, memberId)).toEqual([]);
    expect(await fx.store.getPaymentMethod(fx.demo.id, memberId)).toBeUndefined();
    expect((await fx.store.listContentViews(fx.demo.id, { memberId }, { limit: 10 })).items).toEqual([]);
    if (member.processorCustomerId) expect(await fx.store.getTestProcessorCustomer(member.processorCustomerId)).toBeUndefined();
    const held = await adminRequest<any[]>(fx.app, `/admin/v1/memberships?memberId=${memberId}&status=active`, { key: fx.keys.demo.all });
    expect(held.body).toEqual([]);
    // The ledger stays, as it was, under the member's id.
    expect((await fx.store.listInvoicesOfMember(fx.demo.id, memberId)).map((i) => i.id)).toEqual(invoicesBefore.map((i) => i.id));
    expect((await memberEvents(fx, memberId)).filter((e) => e.eventType === 'memberErased').at(-1).details.by).toEqual({ apiKeyId: expect.any(Number) });
    // Nothing personal is left in what an export gives.
    const exported = await adminRequest(fx.app, `/admin/v1/members/${memberId}/export`, { key: fx.keys.demo.all });
    const text = JSON.stringify(exported.body);
    expect(text).not.toContain(member.email);
    if (member.firstName) expect(text).not.toContain(`"${member.firstName}"`);
    // Erased once is erased: again answers it as it is; block and comp refuse.
    expect((await adminRequest(fx.app, `/admin/v1/members/${memberId}/erase`, { key: fx.keys.demo.all, method: 'POST' })).status).toBe(200);
    expect((await adminRequest(fx.app, `/admin/v1/members/${memberId}/block`, { key: fx.keys.demo.all, method: 'POST' })).status).toBe(409);
  });

  test('bodies: not JSON, the wrong type, an unknown field or too large are refused with a clear error', async () => {
    const fx = fixture();
    const m = (await memberships(fx))[0]!;
    const path = `/admin/v1/memberships/${m.id}/cancel`;
    const cases: Array<[Record<string, string>, string, number]> = [
      [{ 'content-type': 'application/json' }, '{"when":', 400],
      [{ 'content-type': 'text/plain' }, '{"when":"now"}', 415],
      [{ 'content-type': 'application/json' }, '{"when":"later"}', 400],
      [{ 'content-type': 'application/json' }, '{"when":"now","also":1}', 400],
      [{ 'content-type': 'application/json' }, '[]', 400],
      [{ 'content-type': 'application/json' }, `{"when":"${'x'.repeat(5000)}"}`, 413],
    ];
    for (const [headers, body, status] of cases) {
      const res = await adminRequest(fx.app, path, { key: fx.keys.demo.all, method: 'POST', headers, body });
      expect(res.status, body.slice(0, 40)).toBe(status);
      expect(res.body.errors[0].code).toBe('invalidBody');
    }
    expect(await fx.store.getMembership(fx.demo.id, m.id)).toEqual(m);
  });

  test('methods: an action answers other methods 405 naming POST; /memberships takes GET and POST', async () => {
    const fx = fixture();
    const get = await adminRequest(fx.app, '/admin/v1/members/1/block', { key: fx.keys.demo.all, method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const del = await adminRequest(fx.app, '/admin/v1/memberships', { key: fx.keys.demo.all, method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, POST, HEAD');
    const post = await adminRequest(fx.app, '/admin/v1/members', { key: fx.keys.demo.all, method: 'POST', body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  test('GET /invoices pages the ledger by id with its filters, under read.invoices', async () => {
    const fx = fixture();
    const all = (await fx.store.listInvoices(fx.demo.id, {}, { limit: 100_000 })).items;
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const res = await adminRequest<any[]>(fx.app, '/admin/v1/invoices', {
        key: fx.keys.demo.only['read.invoices'],
        headers: { 'x-items-after': '100', ...(cursor && { 'x-cursor': cursor }) },
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.map((i) => i.id));
      cursor = res.headers.get('x-next-cursor') ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.map((i) => i.id));
    const failed = await adminRequest<any[]>(fx.app, '/admin/v1/invoices?status=failed', { key: fx.keys.demo.all, headers: { 'x-items-after': '100' } });
    expect(failed.body.every((i) => i.status === 'failed')).toBe(true);
    expect((await adminRequest(fx.app, '/admin/v1/invoices?status=nope', { key: fx.keys.demo.all })).status).toBe(400);
    expect((await adminRequest(fx.app, '/admin/v1/invoices', { key: fx.keys.demo.allBut['read.invoices'] })).status).toBe(404);
  });
});

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('GET /key answers the request\'s own key: its id, scopes and times, whatever its scopes', async () => {
    const fx = fixture();
    const narrow = await fx.issueKey(fx.demo.id, ['read.members', 'members:write'], DAY);
    const res = await adminRequest(fx.app, '/admin/v1/key', { key: narrow });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      scopes: ['read.members', 'members:write'],
      createdAt: new Date(fx.clock()).toISOString(),
      expiresAt: new Date(fx.clock() + DAY).toISOString(),
    });
    const none = await adminRequest(fx.app, '/admin/v1/key', { key: fx.keys.demo.none });
    expect(none.body.scopes).toEqual([]);
    expect(none.body.expiresAt).toBeUndefined();
    expect(none.body.id).not.toBe(res.body.id);
    // The id is the one owner actions' events name.
    const memberId = (await fx.store.listMemberships(fx.demo.id, { status: 'active' }, { limit: 1 })).items[0]!.memberId;
    await adminRequest(fx.app, `/admin/v1/members/${memberId}/export`, { key: narrow });
    const events = await memberEvents(fx, memberId);
    expect(events.filter((e) => e.eventType === 'memberExported').at(-1).details.by).toEqual({ apiKeyId: res.body.id });
    expect((await adminRequest(fx.app, '/admin/v1/key', {})).status).toBe(401);
  });
});
