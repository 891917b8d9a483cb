import { describe, expect, test } from 'vitest';
import { createPasswordHasher, PRODUCTION_SCRYPT, TEST_SCRYPT } from '../../src/service/auth/passwords';
import { portableScrypt } from '../../src/service/auth/portable-scrypt';
import { nodeScrypt } from '../../src/service/platform/node-scrypt';

const native = createPasswordHasher(nodeScrypt, TEST_SCRYPT);

describe('password hashing', () => {
  test('a hash verifies its own password and no other', async () => {
    const hash = await native.hash('correct horse');
    expect(await native.verify('correct horse', hash)).toBe(true);
    expect(await native.verify('correct horsf', hash)).toBe(false);
    expect(await native.verify('', hash)).toBe(false);
  });

  test('the encoding names scrypt and its cost, and salts every hash', async () => {
    const [a, b] = [await native.hash('same'), await native.hash('same')];
    expect(a).toMatch(/^scrypt\$ln=4,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  test.each([TEST_SCRYPT, { ln: 12, r: 8, p: 1 }])('native and portable scrypt agree, both ways, at %o', async (cost) => {
    const [n, p] = [createPasswordHasher(nodeScrypt, cost), createPasswordHasher(portableScrypt, cost)];
    expect(await p.verify('pässwörd', await n.hash('pässwörd'))).toBe(true);
    expect(await n.verify('pässwörd', await p.hash('pässwörd'))).toBe(true);
    expect(await n.verify('passwörd', await p.hash('pässwörd'))).toBe(false);
  });

  test('production cost is OWASP scrypt N=2^17, r=8, p=1, and such hashes verify under any configured cost', async () => {
    expect(PRODUCTION_SCRYPT).toEqual({ ln: 17, r: 8, p: 1 });
    const strong = createPasswordHasher(nodeScrypt, PRODUCTION_SCRYPT);
    const hash = await strong.hash('long-lived');
    expect(hash.startsWith('scrypt$ln=17,r=8,p=1$')).toBe(true);
    expect(await native.verify('long-lived', hash)).toBe(true);
  });

  test.each([
    ['not an encoding at all', 'plaintext'],
    ['another algorithm', 'bcrypt$2b$10$abcdefghijklmnopqrstuv'],
    ['a cost above production (a denial-of-service attempt)', 'scrypt$ln=24,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a zero cost', 'scrypt$ln=0,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a truncated hash', 'scrypt$ln=10,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAA'],
  ])('refuses %s without throwing', async (_name, encoded) => {
    expect(await native.verify('anything', encoded)).toBe(false);
  });
});
