/**
 * Answers with plain headers (src/service/http/answer.ts): adding headers on the way out keeps
 * body, status and every earlier header, whichever kind of Response it is given.
 */
import { expect, test } from 'vitest';
import { answer, headerOf, withHeaders } from '../../src/service/http/answer';

const all = (response: Response) => Object.fromEntries(response.headers);

test('an answer of ours is made anew: body, status and earlier headers kept, same names replaced', async () => {
  const first = answer('{"a":1}', 201, { 'Content-Type': 'application/json', vary: 'Cookie' });
  const second = withHeaders(first, { vary: 'Origin', 'cache-control': 'no-store' });
  const third = withHeaders(second, { 'x-content-type-options': 'nosniff' });
  expect(third.status).toBe(201);
  expect(await third.text()).toBe('{"a":1}');
  expect(all(third)).toEqual({
    'content-type': 'application/json',
    vary: 'Origin',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  expect(headerOf(third, 'content-type')).toBe('application/json');
  expect(headerOf(third, 'etag')).toBeNull();
  // The earlier answers are untouched (nothing was read from a consumed body).
  expect(all(first)).toEqual({ 'content-type': 'application/json', vary: 'Cookie' });
});

test('an answer with no body (a 204 preflight) stays without one', async () => {
  const done = withHeaders(answer(null, 204, { 'access-control-allow-origin': 'http://a.test' }), { vary: 'Origin' });
  expect(done.status).toBe(204);
  expect(done.body).toBeNull();
  expect(all(done)).toEqual({ 'access-control-allow-origin': 'http://a.test', vary: 'Origin' });
});

test('any other Response is changed in place; one with immutable headers is copied', async () => {
  const plain = new Response('page', { status: 200, headers: { 'content-type': 'text/html' } });
  expect(withHeaders(plain, { 'x-frame-options': 'DENY' })).toBe(plain);
  expect(plain.headers.get('x-frame-options')).toBe('DENY');
  expect(headerOf(plain, 'content-type')).toBe('text/html');

  const redirect = Response.redirect('http://a.test/next', 303);
  const copied = withHeaders(redirect, { 'x-content-type-options': 'nosniff' });
  expect(copied).not.toBe(redirect);
  expect(copied.status).toBe(303);
  expect(copied.headers.get('location')).toBe('http://a.test/next');
  expect(copied.headers.get('x-content-type-options')).toBe('nosniff');
});

test('headers that are already so give back the same answer, not a new one', () => {
  const first = answer('{}', 200, { 'content-type': 'application/json', vary: 'Origin' });
  expect(withHeaders(first, { vary: 'Origin' })).toBe(first);
  expect(withHeaders(first, { vary: 'Cookie' })).not.toBe(first);
});
