/**
 * What turns an upload into the picture the service keeps (decision 0039): decoded, turned
 * upright, made to fit PICTURE_SIZE, and encoded anew, so nothing of the file the member sent
 * is kept but its pixels (no EXIF, no GPS position, no comment, no trailing bytes). The app takes
 * one (ServiceOptions.pictures); `svc serve` and the tests in Node use ./sharp-encoder.
 */
import type { PictureFormat } from './format';

export interface EncodedPicture {
  bytes: Uint8Array;
  contentType: string;
}

export interface PictureEncoder {
  /**
   * `bytes` are `format` by their magic numbers (the caller checked). Throws PictureError when
   * they cannot be decoded as it (cut short, damaged, another format inside) or declare more
   * than MAX_PICTURE_PIXELS; BusyError (../../auth/bounded-queue) when too many are being
   * encoded at once.
   */
  encode(bytes: Uint8Array, format: PictureFormat): Promise<EncodedPicture>;
}

/** Bytes that are no picture the service takes, in words a member can act on. */
export class PictureError extends Error {
  override readonly name = 'PictureError';
}

/** An encoder that takes no picture, saying why: the mock server's, in a browser without sharp. */
export const refusingPictures = (why: string): PictureEncoder => ({
  async encode() {
    throw new PictureError(why);
  },
});
