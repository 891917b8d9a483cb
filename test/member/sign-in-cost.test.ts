/**
 * A wrong password and an unknown e-mail cost the server the same: one password verification
 * each, so response time does not tell which e-mails are members. Counted, not timed.
 */
import { expect, test } from 'vitest';
import { DEMO_FIXTURE, FIXTURES } from '../../mock-server/fixtures';
import { loadFixtures } from '../../mock-server/load-fixtures';
import { createServiceApp } from '../../src/service/app';
import { createPasswordHasher, TEST_SCRYPT, type PasswordHasher } from '../../src/service/auth/passwords';
import { portableScrypt } from '../../src/service/auth/portable-scrypt';
import { createMemoryStore } from '../../src/service/store/memory';

function countingHasher(): PasswordHasher & { verifications: number } {
  const inner = createPasswordHasher(portableScrypt, TEST_SCRYPT);
  const counter = {
    verifications: 0,
    hash: (password: string) => inner.hash(password),
    verify: (password: string, encoded: string) => {
      counter.verifications++;
      return inner.verify(password, encoded);
    },
  };
  return counter;
}

test('a wrong password and an unknown e-mail each cost exactly one password verification', async () => {
  const store = createMemoryStore();
  const passwords = countingHasher();
  await loadFixtures(store, passwords, FIXTURES, Date.now());
  const app = await createServiceApp({ store, passwords });
  const ada = DEMO_FIXTURE.members.find((m) => m.key === 'ada')!;
  const signIn = (email: string, password: string) =>
    app.request('/member/v1/sites/demo/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });

  const costOf = async (email: string, password: string) => {
    const before = passwords.verifications;
    const response = await signIn(email, password);
    return { status: response.status, verifications: passwords.verifications - before };
  };
  // The first unknown e-mail also makes the decoy hash; from then on the two paths are alike.
  await costOf('warm-up@demo.localhost', 'whatever-password');
  expect(await costOf(ada.email, 'wrong password')).toEqual({ status: 401, verifications: 1 });
  expect(await costOf('nobody@demo.localhost', 'wrong password')).toEqual({ status: 401, verifications: 1 });
  expect(await costOf(ada.email, ada.password)).toEqual({ status: 201, verifications: 1 });
});
