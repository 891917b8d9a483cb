/**
 * E-mail address spellings for the tests of the one address check (issue 26: the WHATWG grammar
 * of `<input type=email>`, a dot in the domain, at most 254 characters, trimmed and lower-cased):
 * test/member/email-grammar.test.ts over HTTP, test/unit/text-and-address-rules.test.ts directly.
 */
/** Not plain addresses. The old check took most of them, and nodemailer reads most as Ada's mailbox. */
export const REFUSED = [
  // The finding's three: a list, a display name, a list by semicolon.
  'ada@demo.localhost,z.com',
  'n<ada@demo.localhost>',
  'ada@demo.localhost;z',
  // More of the same kind.
  'ada@demo.localhost,mallory@demo.localhost',
  'Ada<ada@demo.localhost>',
  '<ada@demo.localhost>',
  'ada@demo.localhost>',
  '"ada"@demo.localhost',
  'ada(comment)@demo.localhost',
  'ada@demo.localhost(comment)',
  'ada:x@demo.localhost',
  'ada@demo.localhost:25',
  'ada@[127.0.0.1]',
  'ada\\@demo.localhost',
  'a@b@demo.localhost',
  // Domains the grammar has no room for.
  'ada@-demo.localhost',
  'ada@demo-.localhost',
  'ada@demo..localhost',
  'ada@.demo.localhost',
  'ada@demo.localhost.',
  'ada@demo_x.localhost',
  `ada@${'a'.repeat(64)}.example`,
  // Letters outside ASCII: the grammar has none (a domain is written in punycode: xn--…).
  'zoë@example.com',
  'ada@bücher.example',
  // Refused before too: no dot in the domain, too long.
  'ada@localhost',
  `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example`,
];

/** Plain addresses, and how each is stored. */
export const ACCEPTED: Array<[typed: string, stored: string]> = [
  ['new.member@example.com', 'new.member@example.com'],
  [' New.Member@Example.COM ', 'new.member@example.com'],
  ['a.b+tag@sub.example.co.uk', 'a.b+tag@sub.example.co.uk'],
  ["o'brien@example.com", "o'brien@example.com"],
  ["x!#$%&'*+/=?^_`{|}~-@example.com", "x!#$%&'*+/=?^_`{|}~-@example.com"],
  ['ada@xn--bcher-kva.example', 'ada@xn--bcher-kva.example'],
  [`ada@${'a'.repeat(63)}.example`, `ada@${'a'.repeat(63)}.example`],
];
