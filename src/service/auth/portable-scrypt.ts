/** scrypt in plain JavaScript (@noble/hashes): for the browser mock server and tests. */
import { scryptAsync } from '@noble/hashes/scrypt.js';
import type { ScryptFunction } from './passwords';

export const portableScrypt: ScryptFunction = (password, salt, cost, length) =>
  scryptAsync(password, salt, { N: 2 ** cost.ln, r: cost.r, p: cost.p, dkLen: length, maxmem: 2 ** 31 });
