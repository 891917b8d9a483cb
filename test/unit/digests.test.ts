/**
 * sha256Hex takes node:crypto under Node and @noble/hashes elsewhere (the mock server's browser
 * build): both must give the same digest for every text, non-ASCII included.
 */
import { expect, test } from 'vitest';
import { portableSha256Hex, sha256Hex } from '../../src/service/crypto/digests';

test('sha256Hex gives the known digests and the portable path agrees', () => {
  expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  for (const text of ['svc_admin__umHqn1eyQoiQ49V6QeWj3En5h--OtbE-UxP-YcCDg0', 'Zoë 🍰 日本', '\u0000\uffff', 'x'.repeat(10_000)]) {
    expect(sha256Hex(text)).toBe(portableSha256Hex(text));
  }
});
