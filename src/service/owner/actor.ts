/**
 * Who did an owner action (issue 32), and what every action needs. An Admin API key is named
 * by its id, the `svc` command run on the server by `cli`: each action's member event carries
 * it as `details.by`.
 */
import type { Clock } from '../domain/clock';
import type { ProcessorFor } from '../payments/processor-for';
import type { Store } from '../store/store';

export type Actor = { apiKeyId: number } | { cli: true };

export interface OwnerDeps {
  store: Store;
  clock: Clock;
  processorFor: ProcessorFor;
}
