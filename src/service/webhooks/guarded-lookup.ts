/**
 * Resolving an endpoint's name with the address policy applied, for the check before connecting
 * and, as the `lookup` handed to node's http/https, for the check at connect time. The second is
 * the one that guards: node connects only to what its `lookup` returns, so the address checked
 * is the address connected to, and a name that answers a public address to the first question
 * and 127.0.0.1 to the second (DNS rebinding) is refused at the second.
 *
 * Every resolved address must be reachable, not only the first: with autoSelectFamily (node's
 * default since 20) a connection may try any of them, and a first-only check lets a name list a
 * public address that refuses connections before a private one that does not.
 */
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isReachableAddress } from './address-policy';

/** All the addresses a name resolves to, as the OS resolver gives them. Tests pass their own. */
export type ResolveHost = (hostname: string) => Promise<readonly LookupAddress[]>;

export const resolveWithDns: ResolveHost = (hostname) => dns.lookup(hostname, { all: true });

export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
  readonly code = 'ERR_WEBHOOK_REFUSED_ADDRESS';

  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}, which is not a public address`);
  }
}

export interface AddressGuard {
  allowPrivate: boolean;
  resolve: ResolveHost;
}

/** The addresses of `hostname`, or a RefusedAddressError when any of them may not be reached. */
export async function resolveReachable(hostname: string, { allowPrivate, resolve }: AddressGuard): Promise<LookupAddress[]> {
  const addresses = [...(await resolve(hostname))];
  if (addresses.length === 0) throw Object.assign(new Error(`${hostname} resolves to no address`), { code: 'ENOTFOUND' });
  const refused = addresses.find(({ address }) => !isReachableAddress(address, { allowPrivate }));
  if (refused) throw new RefusedAddressError(hostname, refused.address);
  return addresses;
}

/** A `lookup` for node's net/http/https that resolves anew and refuses as resolveReachable does. */
export function guardedLookup(guard: AddressGuard): LookupFunction {
  return (hostname, options: LookupOptions, callback) => {
    resolveReachable(hostname, guard).then(
      (addresses) => {
        const family = familyOf(options.family);
        const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
        const first = usable[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '');
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

function familyOf(family: LookupOptions['family']): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}
