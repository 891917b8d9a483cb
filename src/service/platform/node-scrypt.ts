/**
 * Node's native scrypt (libuv thread pool). At production cost one hash holds 128 MiB, so at
 * most CONCURRENT hashes run at once and at most MAX_WAITING queue behind them; a call past that
 * is refused with BusyError (the member API answers 429 with Retry-After). A burst of sign-ins
 * can neither exhaust memory nor pile up requests without bound.
 */
import { scrypt } from 'node:crypto';
import type { ScryptFunction } from '../auth/passwords';
import { boundedQueue } from '../auth/bounded-queue';

export const CONCURRENT = 2;
/** About 10 s of production hashing on two cores: a member waits at most that long. */
export const MAX_WAITING = 32;

const hashing = boundedQueue({ concurrent: CONCURRENT, maxWaiting: MAX_WAITING });

export const nodeScrypt: ScryptFunction = (password, salt, cost, length) =>
  hashing(
    () =>
      new Promise<Uint8Array>((resolve, reject) => {
        const N = 2 ** cost.ln;
        const maxmem = 128 * N * cost.r * cost.p + 32 * 1024 * 1024;
        scrypt(password, salt, length, { N, r: cost.r, p: cost.p, maxmem }, (error, key) =>
          error ? reject(error) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength)),
        );
      }),
  );
