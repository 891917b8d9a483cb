/** node:crypto's SHA-256, for ../crypto/digests.ts under Node (the `svc` command installs it). */
import { createHash } from 'node:crypto';
import type { Sha256Hex } from '../crypto/digests';

export const nodeSha256Hex: Sha256Hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
