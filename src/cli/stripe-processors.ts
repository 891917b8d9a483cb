/**
 * The processor each site takes payments through, as `svc serve` and `svc billing run` build it
 * (decision 0033): a Stripe site's own StripePaymentProcessor, made with the secret key its
 * variable holds; every other site the built-in test processor.
 *
 * Checked before anything starts, so a site never runs half-configured: a Stripe site whose
 * variables are unset, whose secret key is no Stripe secret key, or whose keys are of different
 * modes (a live secret key with a test publishable key, or the reverse) stops the start, named.
 * Neither the secret nor any part of it is ever printed.
 */
import { keyMode } from '../service/site-file/payments-schema';
import type { ProcessorFor } from '../service/payments/processor-for';
import type { PaymentProcessor } from '../service/payments/processor';
import { StripePaymentProcessor } from '../service/payments/stripe-processor';
import type { SiteRecord } from '../service/store/records';

export type Env = Record<string, string | undefined>;

/** What is wrong with the payments settings of `sites` in `env`, a line a problem. */
export function paymentsProblems(sites: readonly SiteRecord[], env: Env): string[] {
  const problems: string[] = [];
  for (const site of sites) {
    const payments = site.payments;
    if (payments?.processor !== 'stripe') continue;
    const secret = env[payments.secretKeyEnv];
    const where = `site ${site.subdomain} takes payments through Stripe`;
    if (!secret) problems.push(`${where}, but ${payments.secretKeyEnv} (its secret key) is not set`);
    else if (!/^(sk|rk)_(test|live)_/.test(secret)) problems.push(`${where}, but ${payments.secretKeyEnv} holds no Stripe secret key (sk_test_…, sk_live_… or rk_…)`);
    else if (keyMode(secret) !== keyMode(payments.publishableKey)) {
      problems.push(`${where}, but ${payments.secretKeyEnv} holds a ${keyMode(secret)}-mode key and the publishable key is ${keyMode(payments.publishableKey)}-mode: both test, or both live`);
    }
    if (!env[payments.webhookSecretEnv]) problems.push(`${where}, but ${payments.webhookSecretEnv} (its webhook signing secret) is not set`);
    else if (!env[payments.webhookSecretEnv]!.startsWith('whsec_')) problems.push(`${where}, but ${payments.webhookSecretEnv} holds no webhook signing secret (whsec_…)`);
  }
  return problems;
}

/**
 * Each site's processor: made on first use and kept while its secret key is the same. A Stripe
 * site added after the start (svc sites apply) is checked when first used: its problem is thrown,
 * so the request fails with it logged, never with a payment on the wrong account.
 */
export function processorsFromEnv(env: Env, fallback: PaymentProcessor): ProcessorFor {
  const made = new Map<string, StripePaymentProcessor>();
  const apiUrl = env.SVC_STRIPE_API_URL || undefined;
  return (site) => {
    const payments = site.payments;
    if (payments?.processor !== 'stripe') return fallback;
    const problems = paymentsProblems([site], env);
    if (problems.length > 0) throw new Error(problems.join('; '));
    const secretKey = env[payments.secretKeyEnv]!;
    const key = `${site.id}\n${secretKey}\n${env[payments.webhookSecretEnv]}`;
    let processor = made.get(key);
    const webhookSecret = env[payments.webhookSecretEnv]!;
    if (!processor) made.set(key, (processor = new StripePaymentProcessor({ secretKey, webhookSecret, ...(apiUrl && { apiUrl }) })));
    return processor;
  };
}
