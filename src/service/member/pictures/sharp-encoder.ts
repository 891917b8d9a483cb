/**
 * The picture encoder of `svc serve` (./encoder): sharp (libvips, prebuilt for each platform in
 * its npm packages). Imported on the first upload, never before: the app stays free of Node-only
 * modules until then, so the mock server's browser build loads it (and answers an upload there
 * with the logged failure of this import).
 *
 * Untrusted bytes: libvips stops at the first warning (`failOn: 'warning'`: a truncated or
 * damaged file fails instead of being decoded in part), refuses a header that declares more than
 * MAX_PICTURE_PIXELS before decoding a pixel, decodes only the format the magic numbers named,
 * and at most ENCODING.concurrent at once (each holds a decoded image in memory), a few more
 * waiting; past that the upload is told to come back (BusyError).
 */
import type { Sharp, SharpOptions } from 'sharp';
import { boundedQueue, type QueueLimits } from '../../auth/bounded-queue';
import { PictureError, type PictureEncoder } from './encoder';
import type { PictureFormat } from './format';
import { MAX_PICTURE_PIXELS, PICTURE_SIZE, PICTURE_TYPE } from './limits';

/** Two decodes at a time on the 2 cores a small installation has; eight more may wait their turn. */
export const ENCODING: QueueLimits = { concurrent: 2, maxWaiting: 8 };

type SharpFactory = (input: Uint8Array, options: SharpOptions) => Sharp;

let loading: Promise<SharpFactory> | undefined;
const loadSharp = () =>
  (loading ??= import('sharp').then(({ default: sharp }) => {
    // Nothing of a member's picture stays in libvips' operation cache after its request.
    sharp.cache(false);
    return sharp as unknown as SharpFactory;
  }));

export function sharpPictureEncoder(limits: QueueLimits = ENCODING): PictureEncoder {
  const queue = boundedQueue(limits);
  return {
    async encode(bytes, format) {
      const sharp = await loadSharp();
      return queue(async () => {
        const image = sharp(bytes, { failOn: 'warning', limitInputPixels: MAX_PICTURE_PIXELS, autoOrient: true });
        const found = await image.metadata().catch(async (error: unknown) => {
          if (!overLimit(error)) return undefined;
          // Its size, for the message, from the header alone: nothing is decoded.
          const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
          throw tooLarge(width, height);
        });
        if (found?.format !== format) throw new PictureError(`The picture cannot be read as ${NAMES[format]}: it is damaged, or another kind of file`);
        try {
          // Without keepMetadata() or withMetadata(), sharp writes no EXIF, XMP, IPTC or ICC data.
          const out = await image
            .resize(PICTURE_SIZE, PICTURE_SIZE, { fit: 'inside', withoutEnlargement: true })
            .webp({ quality: 82 })
            .toBuffer();
          return { bytes: new Uint8Array(out.buffer, out.byteOffset, out.byteLength), contentType: PICTURE_TYPE };
        } catch (error) {
          if (overLimit(error)) throw tooLarge(found.width, found.height);
          throw new PictureError(`The picture cannot be read as ${NAMES[format]}: it is cut short or damaged`);
        }
      });
    },
  };
}

const overLimit = (error: unknown) => /pixel limit/i.test(String((error as Error | undefined)?.message));

const NAMES: Record<PictureFormat, string> = { jpeg: 'a JPEG', png: 'a PNG', webp: 'a WebP' };

const tooLarge = (width = 0, height = 0) =>
  new PictureError(`The picture is ${width} × ${height} pixels; at most ${MAX_PICTURE_PIXELS.toLocaleString('en-US')} pixels are taken`);
