/**
 * GET /pictures/{hash}.webp (decision 0039): a member's uploaded picture, for any page, any
 * origin, anyone who has the address. Its address is the hash of its bytes, so its answer never
 * changes: cached for a year, `immutable`. Only the image types the service encodes are ever
 * served, as what they are (`nosniff`), inline, under a policy that lets nothing in it load or
 * run were it opened as a page: never as SVG or HTML, whatever a row might hold.
 */
import type { Store } from '../store/store';
import type { MemberApp } from './context';
import { MemberError } from './errors';
import { hashOfFile } from './pictures/urls';

/** What a stored picture may be served as: the image types the encoder writes, nothing that runs. */
const SERVED_TYPES = new Set(['image/webp', 'image/jpeg', 'image/png']);

export const PICTURE_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
  'content-disposition': 'inline',
  // Any page may show it, a page that isolates itself (COEP) included.
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
} as const;

export function pictureFiles(app: MemberApp, store: Store): void {
  app.get('/pictures/:file', async (c) => {
    const hash = hashOfFile(c.req.param('file'));
    const picture = hash === undefined ? undefined : await store.getMemberPicture(hash);
    if (!picture || !SERVED_TYPES.has(picture.contentType)) throw MemberError.of(404, 'notFound', 'No such picture', 'file');
    return new Response(picture.bytes as Uint8Array<ArrayBuffer>, { headers: { ...PICTURE_HEADERS, 'content-type': picture.contentType } });
  });
}
