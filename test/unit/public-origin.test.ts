/** The service's origin as the client reached it (src/service/http/public-origin.ts): what a picture's URL starts with. */
import { expect, test } from 'vitest';
import { publicOrigin } from '../../src/service/http/public-origin';

const request = (url: string, proto?: string) => new Request(url, proto === undefined ? {} : { headers: { 'x-forwarded-proto': proto } });

test('the request\'s own origin, whatever X-Forwarded-Proto says, when no proxy is trusted', () => {
  expect(publicOrigin(request('http://members.example.com/member/v1/sites/x/me'), 0)).toBe('http://members.example.com');
  expect(publicOrigin(request('http://127.0.0.1:8787/x', 'https'), 0)).toBe('http://127.0.0.1:8787');
});

test('behind trusted proxies, the scheme the outermost trusted one saw; anything but http or https is ignored', () => {
  expect(publicOrigin(request('http://members.example.com/x', 'https'), 1)).toBe('https://members.example.com');
  // Two proxies: the client's own entry (left of them) is never believed.
  expect(publicOrigin(request('http://members.example.com/x', 'http, https, http'), 2)).toBe('https://members.example.com');
  expect(publicOrigin(request('https://members.example.com/x', 'javascript'), 1)).toBe('https://members.example.com');
  expect(publicOrigin(request('http://members.example.com/x'), 1)).toBe('http://members.example.com');
});
