/**
 * What a picture is, by its first bytes (its magic numbers), never by the Content-Type a client
 * sent or a file's name: JPEG (`FF D8 FF`), PNG (`89 50 4E 47 0D 0A 1A 0A`) or WebP (`RIFF`, a
 * length, `WEBP`). Anything else, an SVG, an HTML page, a GIF, is none of them, and is never
 * decoded (an SVG would be, by an XML parser and a renderer).
 */
export type PictureFormat = 'jpeg' | 'png' | 'webp';

const startsWith = (bytes: Uint8Array, at: number, signature: readonly number[]) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];

export function pictureFormat(bytes: Uint8Array): PictureFormat | undefined {
  if (startsWith(bytes, 0, JPEG)) return 'jpeg';
  if (startsWith(bytes, 0, PNG)) return 'png';
  if (startsWith(bytes, 0, RIFF) && startsWith(bytes, 8, WEBP)) return 'webp';
  return undefined;
}

/**
 * The declared types an upload may have (it still goes by the bytes): a browser names a file's
 * type by its extension, and sends none for a file whose extension it does not know. Any other
 * (an SVG's, a page's, a form's) is refused before the body is read.
 */
export const UPLOAD_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp', 'application/octet-stream'];
