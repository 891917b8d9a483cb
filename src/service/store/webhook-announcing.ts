/**
 * How the stores' writes announce webhooks (issue 31; ./webhook-records), the same in the three
 * stores: to whom a message goes, when a write with no time of its own happened, and whether a
 * member changed in a way a receiver sees.
 *
 * A write that may announce something reads its sites' enabled endpoints first, in its own
 * transaction (an indexed read of a few rows, and on almost every site none), and asks `wants`
 * before it builds a message: a write on a site without endpoints (every write of a bulk seed)
 * reads no record back, serializes no body and writes no row for webhooks. A message it does
 * build gets one pending delivery per endpoint that wants its type.
 */
import type { WebhookEventType } from '../../contract/webhooks';
import { endpointWants, memberEventMessage } from '../webhooks/messages';
import type { EpochMs, MemberRecord, NewMemberEvent, SignupValueRecord } from './records';
import type { NewWebhookMessage } from './webhook-records';

/** An enabled endpoint as a write reads it: which site's, and the types it wants (absent: all). */
export interface Subscriber {
  id: number;
  siteId: number;
  events?: readonly WebhookEventType[];
}

/** The enabled endpoints of the sites a write touches, read once in its transaction. */
export class Subscribers {
  private readonly bySite = new Map<number, Subscriber[]>();

  constructor(endpoints: Iterable<Subscriber>) {
    for (const endpoint of endpoints) {
      const mine = this.bySite.get(endpoint.siteId);
      if (mine) mine.push(endpoint);
      else this.bySite.set(endpoint.siteId, [endpoint]);
    }
  }

  /** Whether an enabled endpoint of the site wants `type`: asked before the message is built. */
  wants(siteId: number, type: WebhookEventType): boolean {
    return this.bySite.get(siteId)?.some((e) => endpointWants(e.events, type)) ?? false;
  }

  /** The endpoints a message goes to, by id: one delivery each. */
  endpointsFor(message: Pick<NewWebhookMessage, 'siteId' | 'type'>): number[] {
    return (this.bySite.get(message.siteId) ?? []).filter((e) => endpointWants(e.events, message.type)).map((e) => e.id);
  }
}

/**
 * What a write announces with: `wants` before building a message, `write` to keep the messages
 * (each with its deliveries, due at the message's `createdAt` unless `dueAt` says otherwise; one
 * no endpoint wants is dropped), answering how many deliveries. The memory and SQLite stores'
 * `write` answers at once, PostgreSQL's a promise.
 */
export interface Announcer<Written = number> {
  wants(siteId: number, type: WebhookEventType): boolean;
  write(messages: readonly NewWebhookMessage[], dueAt?: EpochMs): Written;
}

/**
 * When a write that is given no time (updateMember, updateMemberMetadata, updateMembership,
 * markInvoiceRefunded) happened, for its message's `timestamp`: this process's clock, the only
 * one the store has. Its deliveries are not due then but at once (DUE_AT_ONCE): the sender
 * claims by its caller's clock, which may be behind this one (a test's, `svc billing run --at`),
 * and a delivery due in its future would wait for it, holding back the endpoint's later ones.
 */
export const announcedAt = (): EpochMs => Date.now();
export const DUE_AT_ONCE: EpochMs = 0;

/**
 * What `member.updated` is about, as one comparable string: the member as a receiver reads it
 * (e-mail, names, status), whether the address is confirmed, and the custom fields. A change of
 * password or processor customer alone changes none of it, and is not announced.
 */
export function memberState(member: MemberRecord, values: readonly SignupValueRecord[]): string {
  const { email, firstName, lastName, status, emailConfirmedAt } = member;
  const fields = [...values].sort((x, y) => x.fieldId - y.fieldId).map((v) => [v.fieldId, v.value]);
  return JSON.stringify([email, firstName ?? null, lastName ?? null, status, emailConfirmedAt ?? null, fields]);
}

/**
 * Whether an endpoint of any of the rows' sites wants one of the types: asked once for a whole
 * batch before anything is built. A batch's rows are almost always of one site, so a site is
 * looked up again only when it changes from the row before.
 */
export function batchWanted(announcer: Pick<Announcer<unknown>, 'wants'>, rows: readonly { siteId: number }[], ...types: WebhookEventType[]): boolean {
  let last: number | undefined;
  for (const { siteId } of rows) {
    if (siteId === last) continue;
    last = siteId;
    if (types.some((type) => announcer.wants(siteId, type))) return true;
  }
  return false;
}

/** The messages of the member events a write added (ids in input order) that an endpoint wants: conversions and abandoned ones. */
export function eventMessages(announcer: Pick<Announcer<unknown>, 'wants'>, events: readonly NewMemberEvent[], ids: readonly number[]): NewWebhookMessage[] {
  if (!batchWanted(announcer, events, 'conversion', 'conversion.abandoned')) return [];
  const wanted: NewWebhookMessage[] = [];
  events.forEach((event, i) => {
    const message = memberEventMessage({ ...event, id: ids[i]! });
    if (message && announcer.wants(message.siteId, message.type)) wanted.push(message);
  });
  return wanted;
}
