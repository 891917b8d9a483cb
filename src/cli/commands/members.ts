/**
 * `svc members …` (issue 32): the owner's actions from the server's shell, the same code as the
 * Admin API's (service/owner/), recorded as member events `by: { cli: true }`. A member is named
 * by id or e-mail address; `refund` takes an invoice id, `cancel` a membership id or a member and
 * `--plan`. The result goes to stdout as one line of JSON (`export`: the whole document), what
 * happened to stderr. Bad arguments exit 2 before the database is opened; a refused action
 * exits 1 and changes nothing.
 */
import { parseArgs } from 'node:util';
import { parseDateTime } from '../../service/admin/params';
import { toInvoice, toMember, toMembership } from '../../service/admin/serialize';
import { systemClock } from '../../service/domain/clock';
import { findSite } from '../../service/domain/sites';
import { parseId } from '../../service/domain/validation';
import type { Actor, OwnerDeps } from '../../service/owner/actor';
import { cancelMembership } from '../../service/owner/cancel';
import { compMembership } from '../../service/owner/comp';
import { eraseMember } from '../../service/owner/erase';
import { OwnerActionError } from '../../service/owner/errors';
import { exportMember } from '../../service/owner/export';
import { blockMember, unblockMember } from '../../service/owner/member-status';
import { refundInvoice } from '../../service/owner/refund';
import { TestPaymentProcessor } from '../../service/payments/test-processor';
import type { MemberRecord, PlanRecord, SiteRecord } from '../../service/store/records';
import type { Store } from '../../service/store/store';
import { actionNamed, UsageError } from '../config';
import type { Io } from '../io';
import { withStore } from '../store';
import { processorsFromEnv } from '../stripe-processors';

export const MEMBERS_USAGE = [
  'svc members cancel --site S MEMBERSHIP [--at-period-end] [--db PATH]',
  'svc members cancel --site S MEMBER --plan P [--at-period-end] [--db PATH]   (the member\'s active membership of plan P)',
  'svc members refund --site S INVOICE [--amount-cents N] [--expected-refunded-cents R] [--db PATH]   (all that is left without --amount-cents; only while R is refunded so far, with R)',
  'svc members comp --site S MEMBER --plan P [--until 2027-01-31T00:00:00Z] [--db PATH]',
  'svc members block|unblock|export --site S MEMBER [--db PATH]   (export prints JSON on stdout)',
  'svc members erase --site S MEMBER --yes [--db PATH]',
  '   MEMBER: an id or an e-mail address; P: a plan id, public id or key',
];

const BY_CLI: Actor = { cli: true };

interface Options {
  plan?: string;
  'at-period-end'?: boolean;
  'amount-cents'?: string;
  'expected-refunded-cents'?: string;
  until?: string;
  yes?: boolean;
  target: string;
}

interface Action {
  /** Checks the arguments before the database is opened. */
  check?(options: Options): void;
  run(deps: OwnerDeps, site: SiteRecord, options: Options, io: Io): Promise<void>;
}

export async function membersCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [name, ...rest] = args;
  const action = actionNamed(ACTIONS, 'members', name);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      site: { type: 'string' },
      db: { type: 'string' },
      plan: { type: 'string' },
      'at-period-end': { type: 'boolean' },
      'amount-cents': { type: 'string' },
      'expected-refunded-cents': { type: 'string' },
      until: { type: 'string' },
      yes: { type: 'boolean' },
    },
  });
  if (!values.site) throw new UsageError(`members ${name} needs --site`);
  if (positionals.length !== 1) throw new UsageError(`members ${name} takes exactly one ${name === 'refund' ? 'invoice id' : name === 'cancel' ? 'membership id, or a member and --plan' : 'member (id or e-mail)'}`);
  const options: Options = { ...values, target: positionals[0]! };
  action.check?.(options);
  return withStore(values.db, env, async (store) => {
    const site = await findSite(store, values.site!);
    if (!site) {
      io.err(`no site ${values.site}`);
      return 1;
    }
    const processor = new TestPaymentProcessor({ clock: systemClock, store });
    const deps: OwnerDeps = { store, clock: systemClock, processorFor: processorsFromEnv(env, processor) };
    try {
      await action.run(deps, site, options, io);
      return 0;
    } catch (error) {
      if (!(error instanceof OwnerActionError)) throw error;
      io.err(`${error.message}; nothing changed`);
      return 1;
    }
  });
}

/** The member `text` names: an id, or an e-mail address (any letter case). */
async function findMember(store: Store, site: SiteRecord, text: string): Promise<MemberRecord> {
  const id = parseId(text);
  const member = id !== undefined ? await store.getMember(site.id, id) : await byEmail(store, site, text);
  if (!member) throw new OwnerActionError('notFound', `no member ${text} in site ${site.subdomain}`);
  return member;
}
async function byEmail(store: Store, site: SiteRecord, email: string): Promise<MemberRecord | undefined> {
  const login = await store.findMemberLogin(site.id, email.trim().toLowerCase());
  return login && store.getMember(site.id, login.memberId);
}

/** The plan `text` names: its id, public id or key, in any status. */
async function findPlan(store: Store, site: SiteRecord, text: string): Promise<PlanRecord> {
  const id = parseId(text);
  const plans = (await store.getSiteDefinition(site.id))?.plans ?? [];
  const plan = plans.find((p) => p.id === id || p.publicId === text || p.key === text);
  if (!plan) throw new OwnerActionError('notFound', `no plan ${text} in site ${site.subdomain}`);
  return plan;
}

function requireId(text: string, what: string): number {
  const id = parseId(text);
  if (id === undefined) throw new UsageError(`${what} must be an id (digits), got ${text}`);
  return id;
}

const ACTIONS: Record<string, Action> = {
  cancel: {
    check(o) {
      if (o.plan === undefined) requireId(o.target, 'the membership');
    },
    async run(deps, site, o, io) {
      let membershipId: number;
      if (o.plan === undefined) membershipId = parseId(o.target)!;
      else {
        const member = await findMember(deps.store, site, o.target);
        const plan = await findPlan(deps.store, site, o.plan);
        const held = (await deps.store.listMembershipsOfMember(site.id, member.id)).find((m) => m.planId === plan.id && m.status === 'active');
        if (!held) throw new OwnerActionError('notFound', `member ${o.target} has no active membership of plan ${o.plan}`);
        membershipId = held.id;
      }
      const when = o['at-period-end'] ? 'periodEnd' : 'now';
      const membership = await cancelMembership(deps, site, membershipId, when, BY_CLI);
      io.out(JSON.stringify(toMembership(membership)));
      io.err(when === 'now' ? `membership ${membership.id} cancelled` : `membership ${membership.id} ends ${new Date(membership.cancelsAt!).toISOString()}`);
    },
  },
  refund: {
    check(o) {
      requireId(o.target, 'the invoice');
      if (o['amount-cents'] !== undefined && !/^[1-9]\d{0,14}$/.test(o['amount-cents'])) {
        throw new UsageError(`--amount-cents takes a whole number of the currency's minor units (1250 for 12.50), got ${o['amount-cents']}`);
      }
      if (o['expected-refunded-cents'] !== undefined && !/^(0|[1-9]\d{0,14})$/.test(o['expected-refunded-cents'])) {
        throw new UsageError(`--expected-refunded-cents takes the invoice's refundedCents as read, a whole number (0 when none), got ${o['expected-refunded-cents']}`);
      }
    },
    async run(deps, site, o, io) {
      const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
      const ask = { amountCents: number(o['amount-cents']), expectedRefundedCents: number(o['expected-refunded-cents']) };
      const invoice = await refundInvoice(deps, site, parseId(o.target)!, ask, BY_CLI);
      io.out(JSON.stringify(toInvoice(invoice)));
      io.err(`invoice ${invoice.id}: ${invoice.refundedCents} of ${invoice.totalCents} ${invoice.currency} refunded`);
    },
  },
  comp: {
    check(o) {
      if (o.plan === undefined) throw new UsageError('members comp needs --plan');
      if (o.until !== undefined && parseDateTime(o.until) === undefined) throw new UsageError(`--until takes a date-time such as 2027-01-31T00:00:00Z, got ${o.until}`);
    },
    async run(deps, site, o, io) {
      const member = await findMember(deps.store, site, o.target);
      const plan = await findPlan(deps.store, site, o.plan!);
      const expiresAt = o.until === undefined ? undefined : parseDateTime(o.until);
      const membership = await compMembership(deps, site, { memberId: member.id, planId: plan.id, ...(expiresAt !== undefined && { expiresAt }) }, BY_CLI);
      io.out(JSON.stringify(toMembership(membership)));
      io.err(`member ${member.id} was given plan ${plan.name} for free (membership ${membership.id})`);
    },
  },
  block: memberAction(blockMember, 'blocked: signed out everywhere, and cannot sign in'),
  unblock: memberAction(unblockMember, 'unblocked'),
  export: {
    async run(deps, site, o, io) {
      const member = await findMember(deps.store, site, o.target);
      io.out(JSON.stringify(await exportMember(deps, site, member.id, BY_CLI), null, 2));
      io.err(`member ${member.id} exported`);
    },
  },
  erase: {
    check(o) {
      if (!o.yes) throw new UsageError('members erase removes the member\'s personal data for good: add --yes to go ahead');
    },
    ...memberAction(eraseMember, 'erased: personal data removed, memberships ended; invoices kept'),
  },
};

function memberAction(act: (deps: OwnerDeps, site: SiteRecord, memberId: number, by: Actor) => Promise<MemberRecord>, said: string): Action {
  return {
    async run(deps, site, o, io) {
      const member = await findMember(deps.store, site, o.target);
      const after = await act(deps, site, member.id, BY_CLI);
      io.out(JSON.stringify(toMember(after)));
      io.err(`member ${member.id} ${said}`);
    },
  };
}
