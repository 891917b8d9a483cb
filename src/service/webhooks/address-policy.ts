/**
 * Which addresses a webhook may reach, and which endpoint URLs may be stored. A webhook URL is
 * chosen by a site owner and fetched by this server, so without a policy it is a way into the
 * server's own network (server-side request forgery): its loopback, its LAN, its cloud's
 * metadata service. Only public unicast addresses are reachable, unless the endpoint was added
 * with `allowPrivate` for local development.
 *
 * Portable (ipaddr.js is plain JavaScript, no node:*), so the command that stores an endpoint can
 * check its URL wherever the service app runs. Resolving names and the check at connect time are
 * Node-only and live in guarded-lookup.ts.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Cloud metadata services (AWS, GCP, Azure and Oracle on 169.254.169.254, AWS's IPv6 one and its
 * container credentials, Alibaba's): they hand out the machine's credentials to whoever asks, so
 * they stay unreachable even with `allowPrivate`, which local development never needs them for.
 */
const METADATA_ADDRESSES = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'].map((ip) => ipaddr.parse(ip));

/** Global unicast IPv6 (RFC 4291): every other /3 is reserved, local or multicast. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address reached. */
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The address `ip` names, written strictly as an OS resolver writes it: dotted decimal IPv4
 * (no `127.1`, `0x7f.0.0.1` or octal, which ipaddr.js would also take) or IPv6; else undefined.
 */
function parseAddress(ip: string): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return ipaddr.IPv4.parse(ip);
  if (ipaddr.IPv6.isValid(ip)) return ipaddr.IPv6.parse(ip);
  return undefined;
}

/**
 * The IPv4 address an IPv6 form stands for, where packets to it end at that IPv4 address:
 * IPv4-mapped (`::ffff:a.b.c.d`, which a dual-stack socket connects to over IPv4), IPv4-translated
 * (RFC 6145), IPv4-compatible (`::a.b.c.d`, deprecated), NAT64's well-known prefix and 6to4.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const fromParts = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || address.match(WELL_KNOWN_NAT64)) return fromParts(p[6]!, p[7]!);
  if (range === '6to4') return fromParts(p[1]!, p[2]!);
  if (p.slice(0, 6).every((part) => part === 0)) return fromParts(p[6]!, p[7]!);
  return undefined;
}

function isMetadata(address: Address): boolean {
  const target = address.kind() === 'ipv6' ? (embeddedIPv4(address as ipaddr.IPv6) ?? address) : address;
  return METADATA_ADDRESSES.some((metadata) => metadata.kind() === target.kind() && metadata.match(target, target.kind() === 'ipv4' ? 32 : 128));
}

function isPublic(address: Address): boolean {
  if (address.kind() === 'ipv4') {
    // ipaddr.js names every special range (loopback, private, CGNAT, link-local, multicast,
    // broadcast, reserved, documentation, benchmarking, …); what is left is plain unicast.
    return (address as ipaddr.IPv4).range() === 'unicast';
  }
  const v6 = address as ipaddr.IPv6;
  const v4 = embeddedIPv4(v6);
  if (v4) return v4.range() === 'unicast';
  // Teredo, ORCHID, documentation and the like are named ranges inside 2000::/3: refused too.
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/** Whether `text` is an IP address (an endpoint URL's host may be one, or a name). */
export function isIpAddress(text: string): boolean {
  return parseAddress(text) !== undefined;
}

/** Whether `ip` (as a resolver returns it) is a public unicast address a webhook may reach. */
export function isPublicAddress(ip: string): boolean {
  const address = parseAddress(ip);
  return address !== undefined && isPublic(address) && !isMetadata(address);
}

/** Whether a delivery may connect to `ip`: a public address, or any but metadata with `allowPrivate`. */
export function isReachableAddress(ip: string, { allowPrivate }: { allowPrivate: boolean }): boolean {
  const address = parseAddress(ip);
  if (address === undefined || isMetadata(address)) return false;
  return allowPrivate || isPublic(address);
}

export interface EndpointUrlProblem {
  /** `refusedAddress` when the URL names an address (or localhost) it may not reach. */
  reason: 'badUrl' | 'refusedAddress';
  /** Says what is wrong, never repeating a password the URL carried. */
  problem: string;
  /**
   * Refused only for being http or on a private address, which `allowPrivate` (local
   * development) would take: callers say so. Never for cloud metadata, which nothing takes.
   */
  allowedPrivately: boolean;
}

/**
 * The endpoint `text` names, or why it may not be one. What needs DNS (a name resolving to a
 * private address) is decided when delivering, again at each connection, since DNS answers change.
 */
export function checkEndpointUrl(text: string, { allowPrivate }: { allowPrivate: boolean }): URL | EndpointUrlProblem {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { reason: 'badUrl', problem: 'is not a URL', allowedPrivately: false };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return { reason: 'badUrl', problem: allowPrivate ? 'must start with https:// or http://' : 'must start with https://', allowedPrivately: !allowPrivate && url.protocol === 'http:' };
  }
  // Credentials in a URL end up in logs and in the attempt history shown to the owner.
  if (url.username || url.password) return { reason: 'badUrl', problem: 'must not carry a user name or password (user:pass@)', allowedPrivately: false };
  const host = endpointHost(url);
  // WHATWG URL has already rewritten other IPv4 spellings (`127.1`, `2130706433`, `0x7f.1`) and
  // shortened IPv6, so an IP literal is always in the form parseAddress reads.
  if (isIpAddress(host) && !isReachableAddress(host, { allowPrivate })) {
    return { reason: 'refusedAddress', problem: `names ${host}, which is not a public address`, allowedPrivately: !allowPrivate && isReachableAddress(host, { allowPrivate: true }) };
  }
  // RFC 6761: these names are loopback whatever DNS says; refused here with a clearer word.
  if (!allowPrivate && /(^|\.)localhost\.?$/i.test(host)) return { reason: 'refusedAddress', problem: `names ${host}, which is this machine`, allowedPrivately: true };
  return url;
}

/** The URL's host as a socket takes it: an IPv6 literal without its brackets. */
export function endpointHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}
