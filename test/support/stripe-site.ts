/**
 * The demo fixtures' site taking payments through a Stripe account, our stand-in's: the service
 * app over a fresh memory store at FIXTURE_NOW, Stripe processors for Stripe sites and the test
 * processor for the others, and the publishable-key client a member's browser (Stripe.js) uses.
 */
import Stripe from 'stripe';
import type { Hono } from 'hono';
import { FIXTURE_NOW, FIXTURES } from '../../mock-server/fixtures';
import { loadFixtures, type LoadedSite } from '../../mock-server/load-fixtures';
import { createServiceApp } from '../../src/service/app';
import { createPasswordHasher, TEST_SCRYPT } from '../../src/service/auth/passwords';
import { portableScrypt } from '../../src/service/auth/portable-scrypt';
import { StripePaymentProcessor } from '../../src/service/payments/stripe-processor';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { createMemoryStore } from '../../src/service/store/memory';
import type { Store } from '../../src/service/store/store';
import type { StripeStandIn } from './stripe-stand-in/server';

/** The package with the publishable key, pointed at the stand-in: what Stripe.js does in a page. */
export function browserStripe(standIn: StripeStandIn): Stripe {
  const { hostname, port } = new URL(standIn.url);
  return new Stripe(standIn.publishableKey, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
}

export async function stripeSite(standIn: StripeStandIn, options: { webhookSecret?: string; stripeJsUrl?: string } = {}): Promise<{ store: Store; demo: LoadedSite; app: Hono }> {
  const store = createMemoryStore();
  const passwords = createPasswordHasher(portableScrypt, TEST_SCRYPT);
  const [demo] = (await loadFixtures(store, passwords, FIXTURES, FIXTURE_NOW)) as [LoadedSite];
  await store.updateSite(demo.site.id, { payments: { processor: 'stripe', publishableKey: standIn.publishableKey, secretKeyEnv: 'S', webhookSecretEnv: 'W' } });
  const { stripeJsUrl, ...processorOptions } = options;
  const stripe = new StripePaymentProcessor({ secretKey: standIn.secretKey, apiUrl: standIn.url, ...processorOptions });
  const test = new TestPaymentProcessor({ clock: () => FIXTURE_NOW, store });
  const app = await createServiceApp({
    store, passwords, clock: () => FIXTURE_NOW, signupRateLimit: 'off',
    processorFor: (site) => (site.payments?.processor === 'stripe' ? stripe : test),
    ...(stripeJsUrl && { stripeJsUrl }),
  });
  return { store, demo, app };
}
