/**
 * The server's password hashing (platform/node-scrypt.ts) is bounded for the whole process:
 * CONCURRENT hashes run, MAX_WAITING wait, and a call past that is refused at once (BusyError,
 * which the app answers 429 with Retry-After) rather than queued without end.
 */
import { expect, test } from 'vitest';
import { BusyError } from '../../src/service/auth/bounded-queue';
import { CONCURRENT, MAX_WAITING, nodeScrypt } from '../../src/service/platform/node-scrypt';

test('a burst past the queue is refused at once; what was queued all completes', async () => {
  const cost = { ln: 14, r: 8, p: 1 }; // 16 MiB a hash: quick, but slow enough that the burst outruns it
  const salt = new Uint8Array(16);
  const burst = Array.from({ length: CONCURRENT + MAX_WAITING + 8 }, (_, i) =>
    nodeScrypt(new TextEncoder().encode(`password ${i}`), salt, cost, 32).then(
      () => 'hashed' as const,
      (error: unknown) => (error instanceof BusyError && error.retryAfterSeconds >= 1 ? ('busy' as const) : error),
    ),
  );
  const outcomes = await Promise.all(burst);
  expect(outcomes.filter((o) => o === 'hashed')).toHaveLength(CONCURRENT + MAX_WAITING);
  expect(outcomes.filter((o) => o === 'busy')).toHaveLength(8);
  // Once the queue has drained, hashing is open again.
  await expect(nodeScrypt(new TextEncoder().encode('after'), salt, cost, 32)).resolves.toHaveLength(32);
});
