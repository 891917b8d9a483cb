/**
 * sha256Hex is @noble/hashes' unless a platform hands in its own (the `svc` command installs
 * node:crypto's): both must give the same digest for every text, non-ASCII included.
 */
import { expect, test } from 'vitest';
import { portableSha256Hex } from '../../src/service/crypto/digests';
import { nodeSha256Hex } from '../../src/service/platform/node-digests';

test('node:crypto\'s and the portable SHA-256 give the known digests and agree on every text', () => {
  for (const sha256Hex of [portableSha256Hex, nodeSha256Hex]) {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  }
  for (const text of ['svc_admin__umHqn1eyQoiQ49V6QeWj3En5h--OtbE-UxP-YcCDg0', 'Zoë 🍰 日本', '\u0000\uffff', 'x'.repeat(10_000)]) {
    expect(nodeSha256Hex(text)).toBe(portableSha256Hex(text));
  }
});
