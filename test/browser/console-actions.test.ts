/**
 * The owner's actions through the console (issue 32), in Chromium against `svc serve --demo`:
 * each asked for in a dialog, confirmed, its result said on the page, and what the Admin API
 * reports afterwards (read by the test itself) is what the action did: a cancellation now and at
 * the period's end, a plan given for free (counted as comped, not as revenue), a refund in part
 * and of the rest, block and unblock, an export downloaded, an erasure. A refusal is shown in
 * the API's words, and a key without write scopes is offered no action.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Member, MemberEvent, Membership, Plan } from '../../src/contract/admin';
import type { Invoice } from '../../src/contract/webhooks';
import { readsDone, useConsoleSuite } from './support/console';
import { browserTest } from './support/suite';

const suite = useConsoleSuite();

const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
/** Members no earlier test of this file touched: each test takes its own. */
const taken = new Set<number>();
const take = <T extends { memberId?: number; id: number }>(rows: T[], memberOf: (row: T) => number = (row) => row.memberId!): T => {
  const row = rows.find((r) => !taken.has(memberOf(r)))!;
  taken.add(memberOf(row));
  return row;
};

async function openMember(page: Page, memberId: number): Promise<void> {
  await page.goto(`${suite.service.url}/console/#/members/${memberId}`);
  await page.locator('.panel table').first().waitFor();
  await readsDone(page);
}

/** Clicks `button`, then the dialog's confirming button; resolves once the page says how it went. */
async function confirmIn(page: Page, open: () => Promise<void>, confirm: string, fill?: (dialog: ReturnType<Page['getByRole']>) => Promise<void>): Promise<string> {
  await open();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await fill?.(dialog);
  await dialog.getByRole('button', { name: confirm, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  const result = page.locator('.action-result p');
  await result.waitFor();
  await readsDone(page);
  return (await result.textContent()) ?? '';
}

const membershipsOf = (memberId: number) => suite.adminAll<Membership>(`/memberships?memberId=${memberId}`);

browserTest('cancel at the period’s end, then now: the API reports the membership ending, then cancelled', async () => {
  const subscriptions = (await suite.adminAll<Membership>('/memberships?status=active')).filter((m) => m.type === 'subscription' && m.billing && !m.cancelsOn && !m.comp);
  const later = take(subscriptions);
  const now = take(subscriptions);
  const context = await suite.newContext();
  const { page, problems } = await suite.signIn(context);

  await openMember(page, later.memberId);
  const atPeriodEnd = await confirmIn(page, () => page.getByRole('button', { name: new RegExp(`^Cancel…\\s+membership ${later.id}$`) }).click(), 'Cancel membership');
  const after = (await membershipsOf(later.memberId)).find((m) => m.id === later.id)!;
  expect(after.status).toBe('active');
  expect(after.cancelsOn).toBe(later.billing!.billingPeriodEnd);
  expect(atPeriodEnd).toBe(`Cancelled: membership ${later.id} is active, ends ${after.cancelsOn!.slice(0, 10)}.`);

  await openMember(page, now.memberId);
  const atOnce = await confirmIn(page, () => page.getByRole('button', { name: new RegExp(`^Cancel…\\s+membership ${now.id}$`) }).click(), 'Cancel membership', (dialog) =>
    dialog.getByLabel('Now: access ends at once').check(),
  );
  expect(atOnce).toBe(`Cancelled: membership ${now.id} is cancelled.`);
  expect((await membershipsOf(now.memberId)).find((m) => m.id === now.id)!.status).toBe('cancelled');
  // The page shows it as the API does: no Cancel… for it any more.
  expect(await page.getByRole('button', { name: new RegExp(`membership ${now.id}$`) }).count()).toBe(0);
  expect(problems()).toEqual([]);
});

browserTest('a plan given for free: a comped membership in the API, counted as comped on the overview, and no revenue', async () => {
  const plans = await suite.adminAll<Plan>('/plans');
  const yearly = plans.find((p) => p.name === 'Yearly')!;
  const members = await suite.adminAll<Member>('/members?status=approved');
  const holders = new Set((await suite.adminAll<Membership>(`/memberships?planId=${yearly.id}`)).map((m) => m.memberId));
  const member = take(members.filter((m) => !holders.has(m.id)), (m) => m.id);
  const context = await suite.newContext();
  const { page } = await suite.signIn(context);
  await readsDone(page);
  const mrr = await page.locator('table', { has: page.locator('caption', { hasText: 'Monthly recurring revenue per currency' }) }).locator('tbody').textContent();

  await openMember(page, member.id);
  const ends = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  const result = await confirmIn(page, () => page.getByRole('button', { name: 'Give a plan for free…' }).click(), 'Give plan', async (dialog) => {
    await dialog.getByLabel('Plan').selectOption({ label: 'Yearly (subscription)' });
    await dialog.getByLabel('Ends on (optional, UTC)').fill(ends);
  });
  const comped = (await membershipsOf(member.id)).find((m) => m.planId === yearly.id)!;
  expect(comped).toMatchObject({ status: 'active', comp: true, expiresOn: `${ends}T00:00:00.000Z` });
  expect(result).toBe(`Given for free: Yearly, membership ${comped.id}, active.`);
  expect(await page.locator('tbody tr', { hasText: 'Yearly' }).locator('td').nth(4).textContent()).toBe('yes');
  // What it pays: nothing, said so.
  expect(await page.locator('tbody tr', { hasText: 'Yearly' }).locator('td').nth(8).textContent()).toBe('nothing (given for free)');

  await page.getByRole('link', { name: 'Overview' }).click();
  await readsDone(page);
  const compedCount = (await suite.adminAll<Membership>('/memberships?status=active')).filter((m) => m.comp).length;
  expect(compedCount).toBeGreaterThan(0);
  const split = page.locator('table', { has: page.locator('caption', { hasText: 'free against paid' }) });
  expect(await split.locator('tr', { hasText: 'comped' }).locator('td').nth(1).textContent()).toBe(String(compedCount));
  expect(await page.locator('table', { has: page.locator('caption', { hasText: 'Monthly recurring revenue per currency' }) }).locator('tbody').textContent()).toBe(mrr);
});

browserTest('a refund in part, then of the rest: the invoice’s refunded amount and status as the API reports them', async () => {
  const invoice = take((await suite.adminAll<Invoice>('/invoices?status=paid')).filter((i) => i.currency === 'usd' && i.totalCents >= 500 && !i.refundedCents));
  const context = await suite.newContext();
  const { page, problems } = await suite.signIn(context);
  await openMember(page, invoice.memberId);
  const refundButton = () => page.getByRole('button', { name: new RegExp(`^Refund…\\s+invoice ${invoice.id}$`) });

  const part = await confirmIn(page, () => refundButton().click(), 'Refund', (dialog) => dialog.getByLabel(/^Amount/).fill('1.25'));
  expect(part).toBe(`Refunded: invoice ${invoice.id} is paid, ${usd(125)} refunded.`);
  expect(await suite.adminGet<Invoice>(`/invoices/${invoice.id}`)).toMatchObject({ status: 'paid', refundedCents: 125 });

  const rest = await confirmIn(page, () => refundButton().click(), 'Refund');
  expect(rest).toBe(`Refunded: invoice ${invoice.id} is refunded, ${usd(invoice.totalCents)} refunded.`);
  expect(await suite.adminGet<Invoice>(`/invoices/${invoice.id}`)).toMatchObject({ status: 'refunded', refundedCents: invoice.totalCents });
  expect(await refundButton().count()).toBe(0);
  const events = await suite.adminAll<MemberEvent>(`/memberEvents?memberId=${invoice.memberId}`);
  expect(events.filter((e) => e.eventType === 'paymentRefunded' && e.details.invoiceId !== undefined).length).toBeGreaterThanOrEqual(2);
  expect(problems()).toEqual([]);
});

browserTest('block, then unblock: the member’s status as the API reports it', async () => {
  const member = take(await suite.adminAll<Member>('/members?status=approved'), (m) => m.id);
  const context = await suite.newContext();
  const { page } = await suite.signIn(context);
  await openMember(page, member.id);
  const status = async () => (await suite.adminAll<Member>(`/members?email=${encodeURIComponent(member.email)}`))[0]!.status;

  expect(await confirmIn(page, () => page.getByRole('button', { name: 'Block…' }).click(), 'Block member')).toMatch(/^Blocked: .* is blocked\.$/);
  expect(await status()).toBe('blocked');
  expect(await page.locator('[data-field="status"]').textContent()).toBe('blocked');
  // As the unblock starts, the block's result goes: left up while the unblock awaits its answer, it would read as the unblock's.
  const unblocked = confirmIn(page, async () => {
    await page.getByRole('button', { name: 'Unblock…' }).click();
    await page.getByRole('dialog').waitFor();
    expect(await page.locator('.action-result p').count()).toBe(0);
    expect(await page.locator('.action-result').getAttribute('aria-busy')).toBe('true');
  }, 'Unblock member');
  expect(await unblocked).toMatch(/^Unblocked: .* is approved\.$/);
  expect(await status()).toBe('approved');
});

browserTest('export: the member’s data downloaded as JSON, and recorded as a member event', async () => {
  const member = take(await suite.adminAll<Member>('/members?status=approved'), (m) => m.id);
  const context = await suite.newContext({ acceptDownloads: true });
  const { page } = await suite.signIn(context);
  await openMember(page, member.id);
  const [download, result] = await Promise.all([
    page.waitForEvent('download'),
    confirmIn(page, () => page.getByRole('button', { name: 'Export data…' }).click(), 'Export data'),
  ]);
  expect(download.suggestedFilename()).toBe(`member-${member.id}.json`);
  const text = readFileSync(await download.path(), 'utf8');
  expect(text).toContain(member.email);
  expect(() => JSON.parse(text)).not.toThrow();
  expect(result).toBe(`Exported: member-${member.id}.json is downloaded.`);
  expect((await suite.adminAll<MemberEvent>(`/memberEvents?memberId=${member.id}`)).some((e) => e.eventType === 'memberExported')).toBe(true);
});

browserTest('erase, typed to confirm: the API reports the member erased, with nothing that names them', async () => {
  const member = take(await suite.adminAll<Member>('/members?status=approved'), (m) => m.id);
  const context = await suite.newContext();
  const { page } = await suite.signIn(context);
  await openMember(page, member.id);
  await page.getByRole('button', { name: 'Erase…' }).click();
  const dialog = page.getByRole('dialog');
  // Not without the word.
  await dialog.getByRole('button', { name: 'Erase member' }).click();
  expect(await dialog.isVisible()).toBe(true);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });

  const result = await confirmIn(page, () => page.getByRole('button', { name: 'Erase…' }).click(), 'Erase member', (d) => d.getByLabel('Type ERASE to confirm').fill('ERASE'));
  expect(result).toBe(`Erased: member ${member.id} is erased.`);
  const erased = (await suite.adminAll<Member>('/members?status=erased')).find((m) => m.id === member.id)!;
  expect(erased.status).toBe('erased');
  expect(erased.email).not.toBe(member.email);
  expect(await suite.adminAll<Member>(`/members?email=${encodeURIComponent(member.email)}`)).toEqual([]);
  // Nothing more to do to an erased member but read them.
  expect(await page.getByRole('button', { name: /^(Block|Erase)…$/ }).count()).toBe(0);
});

browserTest('a refusal is shown in the API’s words: a membership cancelled, an invoice refunded in another tab meanwhile', async () => {
  const membership = take((await suite.adminAll<Membership>('/memberships?status=active')).filter((m) => m.type === 'subscription' && !m.comp));
  const context = await suite.newContext();
  const { page } = await suite.signIn(context);
  // Another tab signs in on its own: the key is kept per tab.
  const { page: other } = await suite.signIn(context);
  await openMember(page, membership.memberId);
  await openMember(other, membership.memberId);
  const button = (p: Page) => p.getByRole('button', { name: new RegExp(`^Cancel…\\s+membership ${membership.id}$`) });
  const choose = (dialog: ReturnType<Page['getByRole']>) => dialog.getByLabel('Now: access ends at once').check();
  await confirmIn(page, () => button(page).click(), 'Cancel membership', choose);

  await button(other).click();
  const dialog = other.getByRole('dialog');
  await choose(dialog);
  await dialog.getByRole('button', { name: 'Cancel membership' }).click();
  const refusal = other.locator('.action-result [role="alert"]');
  await refusal.waitFor();
  expect(await refusal.textContent()).toMatch(/^The service answered 409 conflict: /);
  expect((await membershipsOf(membership.memberId)).find((m) => m.id === membership.id)!.status).toBe('cancelled');

  // A refund in part from a page read before another refund of the same invoice: refused in the
  // API's words, on the refunded amount the page showed, and the money goes back once.
  const invoice = take((await suite.adminAll<Invoice>('/invoices?status=paid')).filter((i) => i.currency === 'usd' && i.totalCents >= 500 && !i.refundedCents));
  await openMember(page, invoice.memberId);
  await openMember(other, invoice.memberId);
  const refund = (p: Page) => p.getByRole('button', { name: new RegExp(`^Refund…\\s+invoice ${invoice.id}$`) });
  const oneDollar = (d: ReturnType<Page['getByRole']>) => d.getByLabel(/^Amount/).fill('1.00');
  await confirmIn(page, () => refund(page).click(), 'Refund', oneDollar);
  await refund(other).click();
  await oneDollar(dialog);
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect.poll(() => other.locator('.action-result [role="alert"]').textContent()).toMatch(/^The service answered 409 conflict: .*has 100 refunded now, not 0 as expected/);
  expect(await suite.adminGet<Invoice>(`/invoices/${invoice.id}`)).toMatchObject({ status: 'paid', refundedCents: 100 });
});

browserTest('a key with the read scopes only is offered no action, and told which scope each needs', async () => {
  const key = await suite.createKey(['read.plans', 'read.members', 'read.memberships', 'read.memberEvents', 'read.contentViews', 'read.invoices']);
  const invoice = (await suite.adminAll<Invoice>('/invoices?status=paid'))[0]!;
  const context = await suite.newContext();
  const { page, problems } = await suite.signIn(context, key);
  await openMember(page, invoice.memberId);
  for (const line of [
    'This key cannot block, unblock, export or erase members (needs members:write)',
    'This key cannot cancel memberships or give plans for free (needs memberships:write)',
    'This key cannot refund invoices (needs invoices:write)',
  ]) {
    await page.getByText(line).waitFor();
  }
  expect(await page.getByRole('button', { name: /…/ }).count()).toBe(0);
  expect(problems()).toEqual([]);
});
