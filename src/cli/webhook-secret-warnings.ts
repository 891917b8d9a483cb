/**
 * What `svc serve` says at start about the site files' webhook endpoints (issue 31): one whose
 * variable is not set in its environment, or holds no `whsec_…` secret, has every delivery fail
 * ("no secret") until it is. Unlike a Stripe site's keys (./stripe-processors.ts), that is no
 * reason to refuse the start: members and payments work without webhooks, and the deliveries
 * wait in the outbox, retried, so the owner has days to set the variable and restart.
 * The secret is never printed.
 */
import type { Store } from '../service/store/store';
import type { WebhookEndpointRecord } from '../service/store/webhook-records';
import { parseWebhookSecret } from '../service/webhooks/secret';
import type { Env } from './stripe-processors';

/** One line an endpoint whose secret cannot be read from `env`, across every site. */
export async function webhookSecretWarnings(store: Store, env: Env): Promise<string[]> {
  const warnings: string[] = [];
  for (const site of await store.listSites()) {
    for (const endpoint of await store.listWebhookEndpoints(site.id)) {
      const problem = secretProblem(endpoint, env);
      if (problem) {
        warnings.push(
          `webhooks: site ${site.subdomain}'s endpoint ${endpoint.id} (${endpoint.url}) takes its secret from ${endpoint.secretEnv}, ${problem}: ` +
            `its deliveries fail until svc serve runs with ${endpoint.secretEnv} set to the secret`,
        );
      }
    }
  }
  return warnings;
}

/** What is wrong with the variable a site-file endpoint names; undefined when it holds a secret (or the endpoint keeps its own). */
function secretProblem(endpoint: WebhookEndpointRecord, env: Env): string | undefined {
  if (endpoint.secretEnv === undefined || endpoint.secret !== undefined) return undefined;
  const secret = env[endpoint.secretEnv];
  if (!secret) return 'which is not set';
  try {
    parseWebhookSecret(secret);
    return undefined;
  } catch {
    return 'which holds no webhook secret (whsec_ and base64)';
  }
}
