/**
 * The signed-in member's own picture (decision 0039): PUT /me/picture takes the image's bytes as
 * the body, DELETE /me/picture takes the picture away; each answers the member after it. What is
 * refused changes nothing: counted against the member's uploads first (./client-limits), then
 * the declared type (415), the length while it is read (413), the magic numbers (415), the
 * decoding (400), and only a picture encoded anew is stored. ./picture-files serves it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { BusyError } from '../auth/bounded-queue';
import { toHex } from '../crypto/bytes';
import { readBoundedBody } from '../http/bounded-body';
import { jsonResponse } from '../http/json';
import type { MemberApp, MemberContext, MemberRequest } from './context';
import { MemberError } from './errors';
import { PictureError, type EncodedPicture, type PictureEncoder } from './pictures/encoder';
import { pictureFormat, UPLOAD_TYPES } from './pictures/format';
import { MAX_PICTURE_BYTES } from './pictures/limits';

type Deps = Pick<MemberContext, 'store' | 'clock' | 'authenticate' | 'clientLimits' | 'memberInfo' | 'pictures'>;

const TAKEN = 'a JPEG, PNG or WebP image';

export function pictureRoutes(app: MemberApp, deps: Deps): void {
  const { store, clock } = deps;
  const answer = async (c: MemberRequest, changed: Parameters<Deps['memberInfo']>[1]) =>
    jsonResponse(await deps.memberInfo(c, changed), 200, { 'cache-control': 'no-store' });

  app.put('/sites/:subdomain/me/picture', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    await deps.clientLimits.picture(site.id, member.id, clock());
    const encoded = await encode(deps.pictures, await readPicture(c.req.raw));
    const hash = toHex(sha256(encoded.bytes));
    const changed = await store.setMemberPicture(site.id, member.id, { hash, contentType: encoded.contentType, bytes: encoded.bytes, createdAt: clock() });
    return answer(c, changed ?? member);
  });

  app.delete('/sites/:subdomain/me/picture', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    return answer(c, (await store.removeMemberPicture(site.id, member.id)) ?? member);
  });
}

/** The upload's bytes and what they are, or the 415, 413 or 400 that says why not. */
async function readPicture(request: Request) {
  const header = request.headers.get('content-type');
  const declared = header === null ? undefined : header.split(';')[0]!.trim().toLowerCase();
  if (declared !== undefined && !UPLOAD_TYPES.includes(declared)) {
    throw MemberError.of(415, 'unsupportedPicture', `Send the picture's bytes as the body, with Content-Type image/jpeg, image/png or image/webp (got ${declared})`);
  }
  const bytes = await readBoundedBody(request, MAX_PICTURE_BYTES);
  if (!bytes) throw MemberError.of(413, 'pictureTooLarge', `The picture is larger than ${MAX_PICTURE_BYTES / 1024 / 1024} MB (${MAX_PICTURE_BYTES.toLocaleString('en-US')} bytes); send a smaller one`);
  if (bytes.length === 0) throw MemberError.of(400, 'invalidPicture', `The body is empty; send ${TAKEN}`);
  const format = pictureFormat(bytes);
  if (!format) throw MemberError.of(415, 'unsupportedPicture', `The file is not ${TAKEN} (SVG, GIF, HTML and other files are not taken)`);
  return { bytes, format };
}

async function encode(pictures: PictureEncoder, { bytes, format }: Awaited<ReturnType<typeof readPicture>>): Promise<EncodedPicture> {
  try {
    return await pictures.encode(bytes, format);
  } catch (error) {
    if (error instanceof PictureError) throw MemberError.of(400, 'invalidPicture', error.message);
    if (error instanceof BusyError) {
      const wait = String(error.retryAfterSeconds);
      throw MemberError.of(429, 'rateLimited', `The service is encoding many pictures at once; try again in ${wait} s`, 'base', { 'retry-after': wait });
    }
    throw error;
  }
}
