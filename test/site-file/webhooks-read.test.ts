/**
 * Reading the site file's `webhooks:` (issue 31): each endpoint's URL under the address policy
 * (https on a public address, http and private addresses with `allowPrivate`), its events among
 * the known ones, its secret's variable a name, each URL once. Every problem at once, with its
 * line, beside the rest of the file's.
 */
import { expect, test } from 'vitest';
import { readSiteFile, SiteFileError, type SiteFileProblem } from '../../src/service/site-file/read';

const SITE = 'site:\n  subdomain: shop\n  name: Shop\n';

const read = (text: string) => readSiteFile(text, 'yaml', 'shop.yaml').file;

/** The problems reading `text` reports; fails the test when it reads without any. */
function problemsOf(text: string): SiteFileProblem[] {
  try {
    read(text);
  } catch (error) {
    expect(error).toBeInstanceOf(SiteFileError);
    return (error as SiteFileError).problems;
  }
  throw new Error('the file was read without a problem');
}

test('an endpoint reads with its URL as the store keeps it, its events in their order, allowPrivate false by default; none at all is an empty list', () => {
  const file = read(`${SITE}webhooks:
  - url: https://Hooks.Example.com/svc
    events: [payment.succeeded, member.created, payment.succeeded]
    secretEnv: SHOP_HOOK_SECRET
  - { url: "http://localhost:4000/hook", secretEnv: _LOCAL2, allowPrivate: true }
`);
  expect(file.webhooks).toStrictEqual([
    { url: 'https://hooks.example.com/svc', events: ['member.created', 'payment.succeeded'], secretEnv: 'SHOP_HOOK_SECRET', allowPrivate: false },
    { url: 'http://localhost:4000/hook', secretEnv: '_LOCAL2', allowPrivate: true },
  ]);
  expect(read(SITE).webhooks).toEqual([]);
});

test.each([
  ['http without allowPrivate', '{ url: "http://hooks.example.com/", secretEnv: S }', /^must start with https:\/\/ \(for a receiver on this machine or your network, add allowPrivate: true\)$/],
  ['a private address', '{ url: "https://10.1.2.3/hook", secretEnv: S }', /^names 10\.1\.2\.3, which is not a public address \(.*allowPrivate: true\)$/],
  ['localhost', '{ url: "https://localhost/hook", secretEnv: S }', /^names localhost, which is this machine/],
  ['cloud metadata, even with allowPrivate', '{ url: "http://169.254.169.254/latest", secretEnv: S, allowPrivate: true }', /^names 169\.254\.169\.254, which is not a public address$/],
  ['a password in the URL', '{ url: "https://me:pw@hooks.example.com/", secretEnv: S }', /user name or password/],
  ['no URL at all', '{ url: "hooks.example.com", secretEnv: S }', /^is not a URL$/],
  ['a missing URL', '{ secretEnv: S }', /^is required$/],
])('refused: %s, on the url, with its line', (_what, entry, message) => {
  expect(problemsOf(`${SITE}webhooks:\n  - ${entry}\n`)).toEqual([{ path: 'webhooks[0].url', line: 5, message: expect.stringMatching(message) }]);
});

test('refused: an unknown event, named with the events there are', () => {
  expect(problemsOf(`${SITE}webhooks:\n  - url: https://hooks.example.com/\n    events: [member.created, member.deleted]\n    secretEnv: S\n`)).toEqual([
    {
      path: 'webhooks[0].events[1]',
      line: 6,
      message: 'unknown event "member.deleted"; the events are member.created, member.updated, membership.created, membership.cancelled, membership.renewed, membership.ended, payment.succeeded, payment.failed, payment.refunded, conversion, conversion.abandoned',
    },
  ]);
});

test('refused: an empty list of events (leaving it out means every event)', () => {
  expect(problemsOf(`${SITE}webhooks:\n  - url: https://hooks.example.com/\n    events: []\n    secretEnv: S\n`)).toEqual([
    { path: 'webhooks[0].events', line: 6, message: expect.stringMatching(/at least one event/) },
  ]);
});

test.each([
  ['lower case', 'shop_secret'],
  ['a leading digit', '2SECRET'],
  ['a dash', 'SHOP-SECRET'],
  ['the secret itself', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
])('refused: a secretEnv with %s is no variable name', (_what, name) => {
  expect(problemsOf(`${SITE}webhooks:\n  - url: https://hooks.example.com/\n    secretEnv: ${name}\n`)).toEqual([
    { path: 'webhooks[0].secretEnv', line: 6, message: expect.stringMatching(/the name of an environment variable/) },
  ]);
});

test('refused: a missing secretEnv, a secret written in the file, an allowPrivate that is no boolean', () => {
  expect(problemsOf(`${SITE}webhooks:\n  - url: https://hooks.example.com/\n    secret: whsec_abc\n    allowPrivate: "yes"\n`)).toEqual([
    { path: 'webhooks[0].secretEnv', line: 5, message: 'is required' },
    { path: 'webhooks[0].secret', line: 6, message: 'unknown key "secret"' },
    { path: 'webhooks[0].allowPrivate', line: 7, message: expect.stringMatching(/boolean/) },
  ]);
});

test('refused: one URL twice, also when written differently, named where it was first', () => {
  expect(problemsOf(`${SITE}webhooks:
  - { url: "https://hooks.example.com/a", secretEnv: A }
  - { url: "https://hooks.example.com/b", secretEnv: B }
  - { url: "https://HOOKS.example.com:443/a", secretEnv: C }
`)).toEqual([{ path: 'webhooks[2].url', line: 7, message: 'the URL "https://hooks.example.com/a" is used twice (first at webhooks[0].url)' }]);
});

test('every problem at once, in file order, beside the rest of the file\'s: one wrong field does not hide another', () => {
  const text = [
    'site:', //                                                 1
    '  subdomain: shop', //                                     2
    '  name: Shop', //                                          3
    '  currency: zzz', //                                       4
    'webhooks:', //                                             5
    '  - url: http://hooks.example.com/a', //                   6
    '    events: [member.created, member.exploded]', //         7
    '    secretEnv: shop_secret', //                            8
    '  - url: https://hooks.example.com/a', //                  9
    '    secretEnv: B', //                                      10
    '    colour: red', //                                       11
    '  - url: https://192.168.1.20/hook', //                    12
    '    events: []', //                                        13
    '    secretEnv: C', //                                      14
    '  - 5', //                                                 15
    '',
  ].join('\n');
  expect(problemsOf(text).map((p) => [p.line, p.path])).toEqual([
    [4, 'site.currency'],
    [6, 'webhooks[0].url'],
    [7, 'webhooks[0].events[1]'],
    [8, 'webhooks[0].secretEnv'],
    [11, 'webhooks[1].colour'],
    [12, 'webhooks[2].url'],
    [13, 'webhooks[2].events'],
    [15, 'webhooks[3]'],
  ]);
});

test('a URL used twice is said beside the entries\' own problems', () => {
  const problems = problemsOf(`${SITE}webhooks:
  - { url: "https://hooks.example.com/a", secretEnv: bad-name }
  - { url: "https://hooks.example.com/a", secretEnv: B, events: [nope] }
`);
  expect(problems.map((p) => [p.line, p.path])).toEqual([
    [5, 'webhooks[0].secretEnv'],
    [6, 'webhooks[1].events[0]'],
    [6, 'webhooks[1].url'],
  ]);
});
