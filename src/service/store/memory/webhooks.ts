/**
 * The memory store's webhook endpoints, messages, deliveries and attempts (issue 31): the same
 * rules as the SQL stores'. One process, no awaits: a claim is a plain loop, and the lease is
 * `nextAttemptAt` moved forward. The store's announcing writes take an Announcer from here and
 * write with it after every check of theirs has passed, so a rejected write announces nothing.
 */
import { copy, Table } from './table';
import { type Announcer, Subscribers } from '../webhook-announcing';
import type { EpochMs } from '../records';
import type { WebhookMethods } from '../store';
import type {
  NewWebhookMessage,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookEndpointRecord,
} from '../webhook-records';

interface MessageRow extends NewWebhookMessage {
  id: number;
}
/** A delivery names its message's row; reads show the message's public id and type (view). */
interface DeliveryRow {
  id: number;
  siteId: number;
  endpointId: number;
  messageRow: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: EpochMs;
  firstAttemptAt?: EpochMs;
  finishedAt?: EpochMs;
  replayOf?: number;
  createdAt: EpochMs;
}
type AttemptRow = WebhookAttemptRecord & { siteId: number };

export interface MemoryWebhooks {
  methods: WebhookMethods;
  /** For a write about to announce: the endpoints as they are now. */
  announcer(): Announcer;
}

/** Absent keys stay, `null` deletes, anything else is set: the patches' rule. */
function patch<T extends object>(record: T, changes: Record<string, unknown>): void {
  const fields = record as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete fields[key];
    else if (value !== undefined) fields[key] = copy(value);
  }
}

export function memoryWebhooks(requireSite: (siteId: number) => void): MemoryWebhooks {
  const endpoints = new Table<WebhookEndpointRecord>();
  const messages = new Table<MessageRow>();
  const deliveries = new Table<DeliveryRow>();
  const attempts = new Table<AttemptRow>();

  const endpointIn = (siteId: number, id: number) => {
    const endpoint = endpoints.byId.get(id);
    return endpoint?.siteId === siteId ? endpoint : undefined;
  };
  const deliveryIn = (siteId: number, id: number) => {
    const delivery = deliveries.byId.get(id);
    return delivery?.siteId === siteId ? delivery : undefined;
  };
  const view = ({ messageRow, ...delivery }: DeliveryRow): WebhookDeliveryRecord => {
    const message = messages.byId.get(messageRow)!;
    return { ...copy(delivery), messageId: message.publicId, type: message.type };
  };
  const addDelivery = (message: MessageRow, endpointId: number, at: EpochMs, dueAt: EpochMs, replayOf?: number) =>
    deliveries.insert((id) => ({
      id, siteId: message.siteId, endpointId, messageRow: message.id, status: 'pending', attempts: 0, nextAttemptAt: dueAt, createdAt: at,
      ...(replayOf !== undefined && { replayOf }),
    }));

  function announcer(): Announcer {
    const subscribers = new Subscribers(endpoints.rows.filter((e) => e.disabledAt === undefined));
    return {
      wants: (siteId, type) => subscribers.wants(siteId, type),
      write(batch, dueAt) {
        let made = 0;
        for (const message of batch) {
          const to = subscribers.endpointsFor(message);
          if (to.length === 0) continue;
          const row = messages.insert((id) => ({ ...copy(message), id }));
          for (const endpointId of to) addDelivery(row, endpointId, message.createdAt, dueAt ?? message.createdAt);
          made += to.length;
        }
        return made;
      },
    };
  }

  /** Of each enabled endpoint, its oldest pending delivery: the only one a claim may take. */
  function heads(): DeliveryRow[] {
    const enabled = new Set(endpoints.rows.filter((e) => e.disabledAt === undefined).map((e) => e.id));
    const first = new Map<number, DeliveryRow>();
    for (const d of deliveries.rows) {
      if (d.status === 'pending' && enabled.has(d.endpointId) && !first.has(d.endpointId)) first.set(d.endpointId, d);
    }
    return [...first.values()];
  }

  const methods: WebhookMethods = {
    async createWebhookEndpoint(endpoint) {
      requireSite(endpoint.siteId);
      return copy(endpoints.insert((id) => ({ ...copy(endpoint), id })));
    },
    async getWebhookEndpoint(siteId, id) {
      const endpoint = endpointIn(siteId, id);
      return endpoint && copy(endpoint);
    },
    listWebhookEndpoints: async (siteId) => endpoints.rows.filter((e) => e.siteId === siteId).map(copy),
    async updateWebhookEndpoint(siteId, id, changes) {
      const endpoint = endpointIn(siteId, id);
      if (!endpoint) return undefined;
      patch(endpoint, { ...changes });
      return copy(endpoint);
    },
    async deleteWebhookEndpoint(siteId, id) {
      if (!endpointIn(siteId, id)) return false;
      endpoints.deleteWhere((e) => e.id === id);
      // Its deliveries and their attempts go with it, as the SQL stores' foreign keys cascade.
      const gone = new Set(deliveries.rows.filter((d) => d.endpointId === id).map((d) => d.id));
      deliveries.deleteWhere((d) => gone.has(d.id));
      attempts.deleteWhere((a) => gone.has(a.deliveryId));
      return true;
    },

    queueWebhooks: async (batch) => announcer().write(batch),

    async claimWebhookDeliveries(now, limit, leaseMs) {
      const due = heads()
        .filter((d) => d.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id)
        .slice(0, limit);
      for (const d of due) d.nextAttemptAt = now + leaseMs;
      return due
        .sort((a, b) => a.id - b.id)
        .map((d) => ({
          ...view(d),
          body: messages.byId.get(d.messageRow)!.body,
          endpoint: copy(endpoints.byId.get(d.endpointId)!),
          leaseUntil: d.nextAttemptAt,
        }));
    },

    async finishWebhookAttempt(deliveryId, leaseUntil, attempt, result) {
      const delivery = deliveries.byId.get(deliveryId);
      if (delivery?.status !== 'pending' || delivery.nextAttemptAt !== leaseUntil) return false;
      attempts.insert((id) => ({ ...copy(attempt), id, deliveryId, siteId: delivery.siteId }));
      delivery.attempts++;
      delivery.firstAttemptAt ??= attempt.at;
      if ('retryAt' in result.next) delivery.nextAttemptAt = result.next.retryAt;
      else {
        delivery.status = 'succeeded' in result.next ? 'succeeded' : 'failed';
        delivery.finishedAt = attempt.at + attempt.durationMs;
      }
      const endpoint = endpoints.byId.get(delivery.endpointId);
      if (endpoint && result.endpoint) patch(endpoint, { ...result.endpoint });
      return true;
    },

    async getWebhookDelivery(siteId, id) {
      const delivery = deliveryIn(siteId, id);
      return delivery && view(delivery);
    },
    async listWebhookDeliveries(siteId, filter, page) {
      const items: WebhookDeliveryRecord[] = [];
      for (let i = deliveries.rows.length - 1; i >= 0; i--) {
        const d = deliveries.rows[i]!;
        if (d.siteId !== siteId || (page.afterId !== undefined && d.id >= page.afterId)) continue;
        if ((filter.endpointId !== undefined && d.endpointId !== filter.endpointId) || (filter.status !== undefined && d.status !== filter.status)) continue;
        if (items.length === page.limit) return { items, hasMore: true };
        items.push(view(d));
      }
      return { items, hasMore: false };
    },
    listWebhookAttempts: async (siteId, deliveryId) =>
      attempts.rows.filter((a) => a.siteId === siteId && a.deliveryId === deliveryId).map(({ siteId: _, ...a }) => copy(a)),

    async replayWebhookDelivery(siteId, deliveryId, now) {
      const original = deliveryIn(siteId, deliveryId);
      if (!original) return undefined;
      return view(addDelivery(messages.byId.get(original.messageRow)!, original.endpointId, now, now, original.id));
    },

    async deleteOldWebhookRecords(before) {
      let deleted = attempts.deleteWhere((a) => a.at < before);
      const finished = new Set(deliveries.rows.filter((d) => d.finishedAt !== undefined && d.finishedAt < before).map((d) => d.id));
      deleted += deliveries.deleteWhere((d) => finished.has(d.id));
      // What waits for an endpoint disabled since before the time, made before it (the SQL stores' `abandoned`).
      const disabled = new Set(endpoints.rows.filter((e) => e.disabledAt !== undefined && e.disabledAt < before).map((e) => e.id));
      const abandoned = new Set(deliveries.rows.filter((d) => d.status === 'pending' && d.createdAt < before && disabled.has(d.endpointId)).map((d) => d.id));
      deleted += deliveries.deleteWhere((d) => abandoned.has(d.id));
      attempts.deleteWhere((a) => abandoned.has(a.deliveryId));
      // Their attempts were made before they finished, so before `before`: gone already.
      const sent = new Set(deliveries.rows.map((d) => d.messageRow));
      return deleted + messages.deleteWhere((m) => !sent.has(m.id));
    },
  };
  return { methods, announcer };
}
