/**
 * The address policy as rules: which addresses a webhook may reach, with and without
 * allowPrivate, in every spelling an attacker might pick, and which endpoint URLs are refused.
 * Pure functions: nothing here opens a socket.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { checkEndpointUrl, isPublicAddress, isReachableAddress } from '../../src/service/webhooks';

const PUBLIC = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'];

/** Not public, with the range each stands for. */
const REFUSED: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private (RFC 1918)'],
  ['172.16.0.1', 'private (RFC 1918)'],
  ['172.31.255.255', 'private (RFC 1918)'],
  ['192.168.1.1', 'private (RFC 1918)'],
  ['100.64.0.1', 'CGNAT'],
  ['100.127.255.255', 'CGNAT'],
  ['169.254.0.1', 'link-local'],
  ['169.254.169.254', 'metadata (AWS, GCP, Azure)'],
  ['169.254.170.2', 'metadata (AWS containers)'],
  ['100.100.100.200', 'metadata (Alibaba)'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this network'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['::1', 'IPv6 loopback'],
  ['::', 'IPv6 unspecified'],
  ['fe80::1', 'IPv6 link-local'],
  ['fe80::1%eth0', 'IPv6 link-local with a zone'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fd00:ec2::254', 'metadata (AWS IPv6)'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'IPv6 multicast'],
  ['2001:db8::1', 'IPv6 documentation'],
  ['2001::1', 'Teredo'],
  ['100::1', 'discard'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated loopback'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::10.0.0.1', 'IPv4-compatible private'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
  ['64:ff9b:1::a00:1', 'NAT64 local-use prefix'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:a00:1::1', '6to4 of private'],
];

test.each(PUBLIC)('%s is public', (ip) => {
  expect(isPublicAddress(ip)).toBe(true);
  expect(isReachableAddress(ip, { allowPrivate: false })).toBe(true);
});

test.each(REFUSED)('%s is not public (%s)', (ip) => {
  expect(isPublicAddress(ip)).toBe(false);
  expect(isReachableAddress(ip, { allowPrivate: false })).toBe(false);
});

test('allowPrivate reaches every address but the cloud metadata services, in any spelling', () => {
  const metadata = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', 'FD00:EC2:0:0:0:0:0:254'];
  for (const ip of metadata) expect(isReachableAddress(ip, { allowPrivate: true }), ip).toBe(false);
  for (const [ip] of REFUSED.filter(([ip]) => !metadata.includes(ip))) expect(isReachableAddress(ip, { allowPrivate: true }), ip).toBe(true);
});

test.each(['localhost', '127.1', '0x7f000001', '2130706433', '', ' 8.8.8.8', '8.8.8.8 ', '08.8.8.8', '[::1]', '1.2.3.4.5', '::ffff:0x7f.1'])(
  'what is not an address as a resolver writes one (%j) is never reachable',
  (text) => {
    expect(isPublicAddress(text)).toBe(false);
    expect(isReachableAddress(text, { allowPrivate: true })).toBe(false);
  },
);

test('an IPv4 address and its IPv4-mapped and NAT64 forms always get the same verdict', () => {
  fc.assert(
    fc.property(fc.ipV4(), (ip) => {
      const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
      const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
      for (const form of [`::ffff:${ip}`, `::ffff:${hex}`, `64:ff9b::${hex}`]) {
        expect(isPublicAddress(form), form).toBe(isPublicAddress(ip));
      }
    }),
  );
});

test('every address of the private, loopback, link-local and CGNAT ranges is refused', () => {
  const inRange = (first: number, mask: number) => fc.integer({ min: 0, max: 2 ** (32 - mask) - 1 }).map((n) => first + n);
  const dotted = (n: number) => [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.');
  const base = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  const ranges = [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['127.0.0.0', 8], ['169.254.0.0', 16], ['100.64.0.0', 10]] as const;
  fc.assert(
    fc.property(fc.oneof(...ranges.map(([first, mask]) => inRange(base(first), mask))), (n) => {
      expect(isPublicAddress(dotted(n))).toBe(false);
      expect(isPublicAddress(`::ffff:${dotted(n)}`)).toBe(false);
    }),
  );
});

test('an https URL with a name or a public address is an endpoint', () => {
  for (const text of ['https://hooks.example.com/svc?site=ledger', 'https://8.8.8.8:8443/hook', 'https://[2606:4700:4700::1111]/']) {
    expect(checkEndpointUrl(text, { allowPrivate: false })).toBeInstanceOf(URL);
  }
});

test.each([
  ['not a URL', 'hooks.example.com/svc', 'badUrl', /is not a URL/],
  ['http', 'http://hooks.example.com/', 'badUrl', /must start with https:\/\//],
  ['another scheme', 'ftp://hooks.example.com/', 'badUrl', /must start with https:\/\//],
  ['credentials', 'https://user:pass@hooks.example.com/', 'badUrl', /user name or password/],
  ['a user name alone', 'https://user@hooks.example.com/', 'badUrl', /user name or password/],
  ['loopback', 'https://127.0.0.1/', 'refusedAddress', /127\.0\.0\.1, which is not a public address/],
  ['loopback spelled as a number', 'https://2130706433/', 'refusedAddress', /127\.0\.0\.1/],
  ['loopback spelled in hex, short', 'https://0x7f.1/', 'refusedAddress', /127\.0\.0\.1/],
  ['a private address', 'https://192.168.0.10/', 'refusedAddress', /not a public address/],
  ['the metadata service', 'https://169.254.169.254/latest/meta-data/', 'refusedAddress', /not a public address/],
  ['IPv6 loopback', 'https://[::1]:8443/', 'refusedAddress', /names ::1,/],
  ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/', 'refusedAddress', /names ::ffff:7f00:1,/],
  ['unique-local IPv6', 'https://[fd00:ec2::254]/', 'refusedAddress', /not a public address/],
  ['localhost', 'https://localhost/', 'refusedAddress', /this machine/],
  ['a name under localhost', 'https://hooks.localhost./', 'refusedAddress', /this machine/],
])('a URL with %s is refused', (_, text, reason, problem) => {
  const checked = checkEndpointUrl(text, { allowPrivate: false });
  expect(checked).toMatchObject({ reason });
  expect((checked as { problem: string }).problem).toMatch(problem);
});

test('with allowPrivate, http and private addresses are endpoints; credentials and metadata are not', () => {
  for (const text of ['http://127.0.0.1:8080/hook', 'http://localhost:3000/', 'https://192.168.0.10/', 'http://[::1]/']) {
    expect(checkEndpointUrl(text, { allowPrivate: true }), text).toBeInstanceOf(URL);
  }
  expect(checkEndpointUrl('http://a:b@localhost/', { allowPrivate: true })).toMatchObject({ reason: 'badUrl' });
  expect(checkEndpointUrl('http://169.254.169.254/', { allowPrivate: true })).toMatchObject({ reason: 'refusedAddress' });
  expect(checkEndpointUrl('ftp://localhost/', { allowPrivate: true })).toMatchObject({ problem: 'must start with https:// or http://' });
});

test('a refusal never repeats the password the URL carried', () => {
  const checked = checkEndpointUrl('https://owner:s3cret-pw@hooks.example.com/', { allowPrivate: false });
  expect(JSON.stringify(checked)).not.toContain('s3cret-pw');
});

test('a refusal says whether allowPrivate would take the URL: http and private addresses yes; metadata, other schemes and credentials no', () => {
  const privately = (text: string) => (checkEndpointUrl(text, { allowPrivate: false }) as { allowedPrivately: boolean }).allowedPrivately;
  for (const text of ['http://hooks.example.com/', 'https://127.0.0.1/', 'https://10.1.2.3/', 'https://[::1]/', 'https://localhost/']) expect(privately(text), text).toBe(true);
  for (const text of ['https://169.254.169.254/', 'https://[fd00:ec2::254]/', 'ftp://hooks.example.com/', 'https://a:b@hooks.example.com/', 'not a url']) expect(privately(text), text).toBe(false);
  // Refused with allowPrivate given, it would not help either.
  expect(checkEndpointUrl('https://169.254.169.254/', { allowPrivate: true })).toMatchObject({ allowedPrivately: false });
});
