/**
 * Runs expensive work (password hashing) at most `concurrent` at a time, with at most
 * `maxWaiting` more queued behind. Past that, a call is refused at once with BusyError instead
 * of joining an unbounded queue: a burst of sign-ins then costs bounded memory, and the
 * requests that cannot be served soon are told when to come back.
 */
export class BusyError extends Error {
  override readonly name = 'BusyError';
  constructor(readonly retryAfterSeconds: number) {
    super(`busy; try again in ${retryAfterSeconds} s`);
  }
}

export interface QueueLimits {
  concurrent: number;
  maxWaiting: number;
}

export type BoundedQueue = <T>(work: () => Promise<T>) => Promise<T>;

export function boundedQueue({ concurrent, maxWaiting }: QueueLimits): BoundedQueue {
  let running = 0;
  const waiting: Array<() => void> = [];
  // A moving average of how long one piece of work takes, for an honest Retry-After.
  let averageMs = 1000;

  return async (work) => {
    if (running >= concurrent) {
      if (waiting.length >= maxWaiting) {
        throw new BusyError(Math.max(1, Math.ceil((((waiting.length + 1) / concurrent) * averageMs) / 1000)));
      }
      await new Promise<void>((resume) => waiting.push(resume));
    }
    running++;
    const started = Date.now();
    try {
      return await work();
    } finally {
      averageMs = averageMs * 0.8 + (Date.now() - started) * 0.2;
      running--;
      waiting.shift()?.();
    }
  };
}
