/**
 * Which processor a site takes payments through (the site file's `payments:`, decision 0033):
 * the owner's Stripe account, or the built-in test processor. The app is given this as a
 * function, so the mock server (a browser) never loads the Stripe package: only `svc serve` and
 * the billing run make Stripe processors (cli/stripe-processors.ts).
 */
import type { SiteRecord } from '../store/records';
import type { PaymentProcessor } from './processor';

export type ProcessorFor = (site: SiteRecord) => PaymentProcessor;

/** Every site on one processor: the test processor, as the demo, the mock server and most tests run. */
export const oneProcessor =
  (processor: PaymentProcessor): ProcessorFor =>
  () =>
    processor;
