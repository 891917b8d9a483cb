/** What an uploaded picture may be, and what the service makes of it (docs/member-api.md, decision 0039). */

/** The most bytes an upload may have (2 MiB): counted as they arrive, 413 beyond. */
export const MAX_PICTURE_BYTES = 2 * 1024 * 1024;
/**
 * The most pixels a picture may declare (25 megapixels, e.g. 5000 × 5000): a small file can
 * declare a huge image (a decompression bomb), which would take gigabytes to decode. Checked
 * from its header, before a pixel is decoded.
 */
export const MAX_PICTURE_PIXELS = 25_000_000;
/** The stored picture fits in this square (a 3 rem avatar at 2x is 96 px; a page may show it larger). */
export const PICTURE_SIZE = 512;
/** What every stored picture is encoded as: small, and shown by every browser the widget supports. */
export const PICTURE_TYPE = 'image/webp';
/** Uploads (accepted or not) a member may make in an hour; each is a decode and an encode. */
export const PICTURES_PER_MEMBER = { limit: 20, windowMs: 3600_000 } as const;
