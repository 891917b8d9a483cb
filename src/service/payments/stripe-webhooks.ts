/**
 * `POST /stripe/webhooks/{subdomain}`: where a site's Stripe account posts its events (issue 28,
 * decision 0033). The signature is checked on the raw body, as received, with the site's signing
 * secret (the processor's `readEvent`: the `stripe` package's `constructEvent`), and a delivery
 * signed more than five minutes before it arrived is refused, so a captured one cannot be
 * replayed later. Then the event's effects (./stripe-events, each idempotent), then its id is
 * recorded: Stripe is answered 2xx only once both are done, so a failure midway is retried by
 * Stripe and nothing is lost, and a delivery of an event recorded before says so.
 */
import { Hono } from 'hono';
import type { Clock } from '../domain/clock';
import { readBoundedBody } from '../http/bounded-body';
import { jsonResponse } from '../http/json';
import type { Store } from '../store/store';
import { ProcessorEventError } from './processor';
import type { ProcessorFor } from './processor-for';
import { handleStripeEvent } from './stripe-events';

export const STRIPE_WEBHOOK_PATH = '/stripe/webhooks';

/** Stripe's events are a few KB; a body over this is no event of theirs. */
const MAX_EVENT_BYTES = 256 * 1024;

const problem = (status: number, code: string, message: string) =>
  jsonResponse({ errors: [{ path: 'base', code, message }] }, status, { 'cache-control': 'no-store' });

export function stripeWebhooks({ store, clock, processorFor }: { store: Store; clock: Clock; processorFor: ProcessorFor }): Hono {
  const app = new Hono();
  app.post('/:subdomain', async (c) => {
    const site = await store.getSiteBySubdomain(c.req.param('subdomain'));
    const processor = site?.payments?.processor === 'stripe' ? processorFor(site) : undefined;
    if (!site || !processor?.readEvent) return problem(404, 'notFound', 'No site takes Stripe payments at this address');
    const bytes = await readBoundedBody(c.req.raw, MAX_EVENT_BYTES);
    if (!bytes) return problem(413, 'payloadTooLarge', `An event is at most ${MAX_EVENT_BYTES} bytes`);
    const now = clock();
    let event;
    try {
      event = processor.readEvent(new TextDecoder().decode(bytes), c.req.header('stripe-signature'), now);
    } catch (error) {
      if (error instanceof ProcessorEventError) return problem(400, 'invalidSignature', `Not a delivery of this site's Stripe account: ${error.message}`);
      throw error;
    }
    const outcome = await handleStripeEvent(store, site, event, now);
    const first = await store.recordProcessorEvent({ siteId: site.id, eventId: event.id, type: event.type, receivedAt: now });
    return jsonResponse({ received: true, ...(first ? { outcome } : { duplicate: true }) }, 200, { 'cache-control': 'no-store' });
  });
  return app;
}
