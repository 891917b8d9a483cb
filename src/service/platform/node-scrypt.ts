/**
 * Node's native scrypt (libuv thread pool). At production cost one hash holds 128 MiB, so at
 * most CONCURRENT hashes run at once and the rest queue: a burst of sign-ins cannot exhaust
 * memory, it only waits.
 */
import { scrypt } from 'node:crypto';
import type { ScryptFunction } from '../auth/passwords';

const CONCURRENT = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT) await new Promise<void>((resume) => waiting.push(resume));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export const nodeScrypt: ScryptFunction = (password, salt, cost, length) =>
  slot(
    () =>
      new Promise<Uint8Array>((resolve, reject) => {
        const N = 2 ** cost.ln;
        const maxmem = 128 * N * cost.r * cost.p + 32 * 1024 * 1024;
        scrypt(password, salt, length, { N, r: cost.r, p: cost.p, maxmem }, (error, key) =>
          error ? reject(error) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength)),
        );
      }),
  );
