/**
 * A member's page: who they are, their memberships, invoices and events (each read by
 * `memberId`), and the owner's actions, each confirmed in a dialog, its result said on the page
 * and the page read again so it shows what the API now reports.
 */
import type { Member, MemberEvent, Membership, Plan, Scope } from '../../contract/admin';
import type { Invoice } from '../../contract/webhooks';
import { ApiFailure } from '../api/admin-api';
import { lacksMessage } from '../api/capabilities';
import { readAll } from '../api/long-read';
import type { ConsoleContext } from '../context';
import { type Child, h, replace } from '../dom';
import { dateTime, day, minor } from '../format';
import { dataTable } from '../ui/data-table';
import { ReadProgress } from '../ui/read-progress';
import { missingScopes, section } from '../ui/section';
import { blockMember, canRefund, cancelMembership, compPlan, eraseMember, exportMember, refundInvoice } from './member-actions';
import { membershipPays } from './membership-pays';
import { memberName } from './members';

/** The member from the table, or else read from /members a page at a time (ids ascend) until found. */
async function findMember(ctx: ConsoleContext, id: number, signal: AbortSignal, where: HTMLElement): Promise<Member | undefined> {
  const seen = ctx.members.get(id);
  if (seen) return seen;
  const progress = new ReadProgress(`members, looking for member ${id}`, signal);
  replace(where, progress.element);
  let found: Member | undefined;
  const search = new AbortController();
  const outcome = await readAll<Member>(ctx.api, '/members', undefined, {
    signal: AbortSignal.any([progress.signal, search.signal]),
    onPage(items, read) {
      progress.update(read);
      found = items.find((member) => member.id === id);
      if (found || (items.at(-1)?.id ?? 0) > id) search.abort();
    },
  });
  where.replaceChildren();
  if (!found && !outcome.complete && !search.signal.aborted) progress.finish(outcome);
  if (found) ctx.members.set(id, found);
  return found;
}

async function readList<T>(ctx: ConsoleContext, path: string, memberId: number, signal: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  await readAll<T>(ctx.api, path, { memberId }, { signal, onPage: (page) => items.push(...page) });
  return items;
}

export function memberView(ctx: ConsoleContext, id: number, signal: AbortSignal): HTMLElement {
  const heading = h('h1', { tabindex: -1 }, `Member ${id}`);
  const facts = h('div', { class: 'member-facts' });
  const toolbar = h('div', { class: 'toolbar', role: 'group', 'aria-label': 'Actions on this member' });
  const result = h('div', { class: 'action-result', role: 'status' });
  const memberships = section('Memberships', h('p', null, 'Reading…'));
  const invoices = section('Invoices', h('p', null, 'Reading…'));
  const events = section('Events', h('p', null, 'Reading…'));
  let member: Member | undefined;

  /** Runs an owner action: its result on the page, a scope found missing said so, then everything read again. */
  const act = async (scope: Scope, what: () => Promise<string | undefined>) => {
    // The previous action's result goes as this one starts: left up while this one waits for its answer, it would read as this one's.
    replace(result);
    result.setAttribute('aria-busy', 'true');
    try {
      const done = await what();
      if (done === undefined) return; // cancelled in the dialog
      replace(result, h('p', { class: 'done' }, done));
      ctx.plans.refresh();
    } catch (error) {
      // Sign-in found the key's write scopes, so a 404 now is most likely what was acted on, gone meanwhile.
      const words = error instanceof ApiFailure && error.status === 404 ? `The service answered 404: it is gone, or ${lacksMessage(scope).replace(/^This key/, 'this key')}.` : ctx.failed(error);
      replace(result, h('p', { class: 'error', role: 'alert' }, words));
    } finally {
      result.removeAttribute('aria-busy');
    }
    await load();
  };

  const renderMember = (m: Member) => {
    member = m;
    heading.textContent = memberName(m);
    replace(
      facts,
      h(
        'dl',
        null,
        h('dt', null, 'E-mail'),
        h('dd', null, m.email),
        h('dt', null, 'Status'),
        h('dd', { 'data-field': 'status' }, m.status),
        h('dt', null, 'Joined'),
        h('dd', null, dateTime(m.createdAt)),
        h('dt', null, 'Id'),
        h('dd', null, String(m.id)),
      ),
    );
    const can = ctx.capabilities.has('members:write');
    const live = m.status !== 'erased';
    replace(
      toolbar,
      can &&
        live && [
          m.status === 'blocked'
            ? h('button', { type: 'button', onclick: () => void act('members:write', async () => done(await blockMember(ctx, m, false), (u) => `Unblocked: ${memberName(u)} is ${u.status}.`)) }, 'Unblock…')
            : h('button', { type: 'button', onclick: () => void act('members:write', async () => done(await blockMember(ctx, m, true), (u) => `Blocked: ${memberName(u)} is ${u.status}.`)) }, 'Block…'),
        ],
      can && h('button', { type: 'button', onclick: () => void act('members:write', async () => ((await exportMember(ctx, m)) ? `Exported: member-${m.id}.json is downloaded.` : undefined)) }, 'Export data…'),
      can && live && h('button', { type: 'button', class: 'danger', onclick: () => void act('members:write', async () => done(await eraseMember(ctx, m), (u) => `Erased: member ${u.id} is ${u.status}.`)) }, 'Erase…'),
      missingScopes(can ? [] : ['members:write']),
    );
  };

  const renderMemberships = (rows: Membership[], plans: Map<number, Plan>, listed: Plan[]) => {
    const planOf = (planId: number) => plans.get(planId) ?? listed.find((p) => p.id === planId);
    const planName = (planId: number) => planOf(planId)?.name ?? `Plan ${planId}`;
    const canWrite = ctx.capabilities.has('memberships:write');
    const comp =
      canWrite && member && member.status !== 'erased' && listed.length > 0
        ? h('button', { type: 'button', onclick: () => void act('memberships:write', async () => done(await compPlan(ctx, member!, listed.filter((p) => p.status === 'enabled')), (ms) => `Given for free: ${planName(ms.planId)}, membership ${ms.id}, ${ms.status}.`)) }, 'Give a plan for free…')
        : null;
    replace(
      memberships.querySelector('.panel-body') ?? appendBody(memberships),
      dataTable({
        caption: `Memberships of member ${id}`,
        filename: `member-${id}-memberships`,
        rows,
        empty: 'No memberships.',
        actions: comp,
        columns: [
          { header: 'Id', numeric: true, cell: (m) => m.id },
          { header: 'Plan', cell: (m) => planName(m.planId) },
          { header: 'Type', cell: (m) => m.type },
          { header: 'Status', cell: (m) => m.status },
          { header: 'Comp', cell: (m) => (m.comp ? 'yes' : ''), csv: (m) => Boolean(m.comp) },
          { header: 'Started', cell: (m) => day(m.createdAt), csv: (m) => m.createdAt },
          { header: 'Ends', cell: (m) => day(m.cancelsOn ?? m.expiresOn), csv: (m) => m.cancelsOn ?? m.expiresOn },
          { header: 'Next charge', cell: (m) => day(m.billing?.billingPeriodEnd), csv: (m) => m.billing?.billingPeriodEnd },
          { header: 'Pays', cell: (m) => membershipPays(m, planOf(m.planId)) },
          {
            header: 'Action',
            cell: (m) =>
              canWrite && m.status === 'active'
                ? h('button', { type: 'button', onclick: () => void act('memberships:write', async () => done(await cancelMembership(ctx, m, planName(m.planId)), (c) => `Cancelled: membership ${c.id} is ${c.status}${c.status === 'active' && c.cancelsOn ? `, ends ${day(c.cancelsOn)}` : ''}.`)) }, 'Cancel…', h('span', { class: 'visually-hidden' }, ` membership ${m.id}`))
                : '',
            csv: () => '',
          },
        ],
      }),
      missingScopes(canWrite ? [] : ['memberships:write']),
    );
  };

  const renderInvoices = (rows: Invoice[]) => {
    const canWrite = ctx.capabilities.has('invoices:write');
    replace(
      invoices.querySelector('.panel-body') ?? appendBody(invoices),
      dataTable({
        caption: `Invoices of member ${id}`,
        filename: `member-${id}-invoices`,
        rows,
        empty: 'No invoices.',
        columns: [
          { header: 'Id', numeric: true, cell: (i) => i.id },
          { header: 'Date', cell: (i) => day(i.createdAt), csv: (i) => i.createdAt },
          { header: 'Description', cell: (i) => i.description },
          { header: 'Total', numeric: true, cell: (i) => minor(i.totalCents, i.currency), csv: (i) => i.totalCents },
          { header: 'Refunded', numeric: true, cell: (i) => (i.refundedCents ? minor(i.refundedCents, i.currency) : ''), csv: (i) => i.refundedCents ?? 0 },
          { header: 'Currency', cell: (i) => i.currency.toUpperCase() },
          { header: 'Status', cell: (i) => i.status },
          {
            header: 'Action',
            cell: (i) =>
              canWrite && canRefund(i)
                ? h('button', { type: 'button', onclick: () => void act('invoices:write', async () => done(await refundInvoice(ctx, i), (r) => `Refunded: invoice ${r.id} is ${r.status}, ${minor(r.refundedCents ?? 0, r.currency)} refunded.`)) }, 'Refund…', h('span', { class: 'visually-hidden' }, ` invoice ${i.id}`))
                : '',
            csv: () => '',
          },
        ],
      }),
      missingScopes(canWrite ? [] : ['invoices:write']),
    );
  };

  const renderEvents = (rows: MemberEvent[]) =>
    replace(
      events.querySelector('.panel-body') ?? appendBody(events),
      dataTable({
        caption: `Events of member ${id}, newest first`,
        filename: `member-${id}-events`,
        rows: [...rows].reverse(),
        empty: 'No events.',
        columns: [
          { header: 'Date', cell: (e) => dateTime(e.createdAt), csv: (e) => e.createdAt },
          { header: 'Event', cell: (e) => e.eventType },
          { header: 'Details', cell: (e) => detailsText(e.details), csv: (e) => JSON.stringify(e.details) },
        ],
      }),
    );

  /** Reads one part of the page, or says why it cannot. */
  const part = async <T>(panel: HTMLElement, scope: Scope, read: () => Promise<T>, render: (value: T) => void) => {
    const body = panel.querySelector('.panel-body') ?? appendBody(panel);
    if (!ctx.capabilities.has(scope)) return replace(body, missingScopes([scope]));
    try {
      const value = await read();
      if (!signal.aborted) render(value);
    } catch (error) {
      if (!signal.aborted) replace(body, h('p', { class: 'error', role: 'alert' }, ctx.failed(error, scope)));
    }
  };

  /** Reads the page anew; `aria-busy` says so meanwhile (the tables shown until then are the ones before). */
  const load = async () => {
    view.setAttribute('aria-busy', 'true');
    try {
      await loadParts();
    } finally {
      view.removeAttribute('aria-busy');
    }
  };

  const loadParts = async () => {
    const fresh = await findFresh();
    if (signal.aborted) return;
    if (!fresh) {
      replace(facts, h('p', { class: 'error', role: 'alert' }, `No member ${id} on this site.`));
      toolbar.replaceChildren();
      return;
    }
    renderMember(fresh);
    await Promise.all([
      part(memberships, 'read.memberships', async () => {
        const rows = await readList<Membership>(ctx, '/memberships', id, signal);
        const canPlans = ctx.capabilities.has('read.plans');
        const listed = canPlans ? await ctx.plans.listedPlans(signal) : [];
        const plans = canPlans ? await ctx.plans.plans(rows.map((m) => m.planId), signal) : new Map<number, Plan>();
        return { rows, plans, listed };
      }, ({ rows, plans, listed }) => renderMemberships(rows, plans, listed)),
      part(invoices, 'read.invoices', () => readList<Invoice>(ctx, '/invoices', id, signal), renderInvoices),
      part(events, 'read.memberEvents', () => readList<MemberEvent>(ctx, '/memberEvents', id, signal), renderEvents),
    ]);
  };

  /** The member as the API reports them now: after an action, the action's answer was put in the cache. */
  const findFresh = async () => {
    if (!ctx.capabilities.has('read.members')) {
      replace(facts, missingScopes(['read.members']));
      return member ?? ({ id, email: '', status: 'approved', createdAt: '' } as Member);
    }
    try {
      return await findMember(ctx, id, signal, facts);
    } catch (error) {
      replace(facts, h('p', { class: 'error', role: 'alert' }, ctx.failed(error, 'read.members')));
      return undefined;
    }
  };

  /** The action's answer as the words said, the member cache kept in step; undefined when the dialog was cancelled. */
  function done<T>(answer: T | undefined, words: (answer: T) => string): string | undefined {
    if (answer === undefined) return undefined;
    const value = answer as unknown as Partial<Member>;
    if (value && typeof value === 'object' && 'email' in value && value.id === id) ctx.members.set(id, answer as unknown as Member);
    return words(answer);
  }

  const view = h(
    'div',
    { class: 'view' },
    h('p', { class: 'back' }, h('a', { href: '#/members' }, '← Members')),
    heading,
    facts,
    toolbar,
    result,
    memberships,
    invoices,
    events,
  );
  void load();
  return view;
}

function appendBody(panel: HTMLElement): HTMLElement {
  panel.querySelector(':scope > p')?.remove();
  const body = h('div', { class: 'panel-body' });
  panel.append(body);
  return body;
}

/** An event's details as short text: `key: value` pairs. */
function detailsText(details: Record<string, unknown>): Child {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}
