/**
 * Members' profile pictures (decision 0039): PUT and DELETE /me/picture, GET /pictures/{file}.
 * The pictures are made here with sharp, as a member's camera or editor would make them.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { PICTURES_PATH } from '../../src/service/member/pictures/urls';
import { MAX_PICTURE_BYTES, PICTURES_PER_MEMBER } from '../../src/service/member/pictures/limits';
import { createServiceApp } from '../../src/service/app';
import { BusyError } from '../../src/service/auth/bounded-queue';
import { createMemoryStore } from '../../src/service/store/memory';
import { ADA, BASE, buildMemberCtx, expectError, forEachStore, GRACE, jsonOf, ORIGIN, requestFor, type MemberCtx, type MemberInfo } from './support';

const PICTURE = `${BASE}/me/picture`;

/** Made once for the whole file: sharp's encoders are the slow part. */
const once = <T>(make: () => Promise<T>) => {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
};
/** A landscape PNG with transparency, larger than what is kept. */
const landscapePng = once(() => sharp({ create: { width: 800, height: 600, channels: 4, background: { r: 40, g: 90, b: 200, alpha: 0.5 } } }).png().toBuffer());
const smallPng = once(() => sharp({ create: { width: 40, height: 40, channels: 3, background: '#0a0' } }).png().toBuffer());
/**
 * A JPEG as a phone writes one: taken on its side (EXIF orientation 6, shown turned a quarter
 * right), with the owner's name, a description and where it was taken (GPS).
 */
const phoneJpeg = once(() =>
  sharp({ create: { width: 300, height: 200, channels: 3, background: '#c33' } })
    .jpeg()
    .withExif({
      IFD0: { Copyright: 'Ada Lovelace', ImageDescription: 'at home in Marylebone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 31/1 1234/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 9/1 3959/100' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer(),
);
const webp = once(() => sharp({ create: { width: 64, height: 64, channels: 3, background: '#fc0' } }).webp().toBuffer());
/** A real decompression bomb: a few kilobytes declaring (and holding) 25,005,000 pixels of white. */
const bigPng = once(() => sharp({ create: { width: 5001, height: 5000, channels: 3, background: '#fff' } }).greyscale().png({ compressionLevel: 9 }).toBuffer());

/** A PNG whose header declares 60,000 × 60,000 pixels and holds almost nothing: refused from its header. */
function headerBomb(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(60_000, 0);
  ihdr.writeUInt32BE(60_000, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])), chunk('IEND', Buffer.alloc(0))]);
}

/** The tags of an EXIF block's first directory (0x8825: where the GPS position is). */
function exifTags(exif: Buffer): number[] {
  const tiff = exif.subarray(exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const first = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  return Array.from({ length: u16(first) }, (_, i) => u16(first + 2 + i * 12));
}

const upload = (ctx: MemberCtx, token: string, body: string | Uint8Array, type = 'image/png') =>
  ctx.authed(token, PICTURE, { method: 'PUT', raw: body as BodyInit, headers: { 'content-type': type } });
const uploaded = async (ctx: MemberCtx, token: string, body: string | Uint8Array, type?: string) => jsonOf<MemberInfo>(await upload(ctx, token, body, type), 200);
const me = async (ctx: MemberCtx, token: string) => jsonOf<MemberInfo>(await ctx.authed(token, `${BASE}/me`), 200);
/** The picture at the URL, read as an image. */
async function fetchPicture(ctx: MemberCtx, url: string) {
  const res = await ctx.request(url, { origin: null });
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, metadata: await sharp(bytes).metadata() };
}

forEachStore((fresh) => {
  test('an uploaded PNG is kept as WebP within 512 × 512, transparency and proportions kept, at its SHA-256\'s address', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const info = await uploaded(ctx, token, await landscapePng());
    expect(info.profileImageUrl).toMatch(new RegExp(`^http://svc\\.test${PICTURES_PATH}/[0-9a-f]{64}\\.webp$`));
    const { bytes, metadata } = await fetchPicture(ctx, info.profileImageUrl);
    expect(info.profileImageUrl).toBe(`http://svc.test${PICTURES_PATH}/${createHash('sha256').update(bytes).digest('hex')}.webp`);
    expect(metadata).toMatchObject({ format: 'webp', width: 512, height: 384, hasAlpha: true });
    // Every answer that carries the member carries it: GET /me, and a new sign-in's.
    expect((await me(ctx, token)).profileImageUrl).toBe(info.profileImageUrl);
    expect((await ctx.session(ADA)).memberInfo.profileImageUrl).toBe(info.profileImageUrl);
    // A small picture is not blown up.
    const small = await fetchPicture(ctx, (await uploaded(ctx, token, await smallPng())).profileImageUrl);
    expect(small.metadata).toMatchObject({ format: 'webp', width: 40, height: 40 });
  });

  test('a phone\'s JPEG is turned upright and keeps nothing of its metadata: no EXIF, no GPS position, no names', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const sent = await phoneJpeg();
    const before = await sharp(sent).metadata();
    expect([before.width, before.height, before.orientation]).toEqual([300, 200, 6]);
    expect(exifTags(before.exif!)).toContain(0x8825);
    const { bytes, metadata } = await fetchPicture(ctx, (await uploaded(ctx, token, sent, 'image/jpeg')).profileImageUrl);
    expect(metadata).toMatchObject({ format: 'webp', width: 200, height: 300 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.iptc).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    for (const text of ['Exif', 'Ada Lovelace', 'Marylebone']) expect(bytes.includes(Buffer.from(text, 'latin1')), text).toBe(false);
  });

  test('WebP is taken too; the declared type does not matter among the image ones, the bytes do', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    expect((await fetchPicture(ctx, (await uploaded(ctx, token, await webp(), 'image/webp')).profileImageUrl)).metadata.format).toBe('webp');
    // A PNG a file picker named .jpg, and a file of no known type.
    expect((await uploaded(ctx, token, await smallPng(), 'image/jpeg')).profileImageUrl).toMatch(/\.webp$/);
    expect((await uploaded(ctx, token, await smallPng(), 'application/octet-stream')).profileImageUrl).toMatch(/\.webp$/);
    // A file whose extension the browser does not know: sent with no type at all.
    const untyped = await ctx.app.request(`http://svc.test${PICTURE}`, { method: 'PUT', headers: { origin: ORIGIN, authorization: `Bearer ${token}` }, body: await webp() as Uint8Array<ArrayBuffer> });
    expect(untyped.status).toBe(200);
  });

  test('the picture is served to any page as an image only: immutable, nosniff, no script, inline; HEAD too', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const url = (await uploaded(ctx, token, await smallPng())).profileImageUrl;
    const res = await ctx.request(url, { origin: 'https://elsewhere.example' });
    expect(res.status).toBe(200);
    expect(Object.fromEntries(['content-type', 'cache-control', 'x-content-type-options', 'content-security-policy', 'content-disposition', 'access-control-allow-origin', 'cross-origin-resource-policy'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'content-type': 'image/webp',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
      'content-disposition': 'inline',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
    const head = await ctx.request(url, { method: 'HEAD', origin: null });
    expect([head.status, head.headers.get('content-type'), (await head.arrayBuffer()).byteLength]).toEqual([200, 'image/webp', 0]);
  });

  test('names that are no stored picture are 404: another hash, case or extension, a path', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const url = (await uploaded(ctx, token, await smallPng())).profileImageUrl;
    const hash = /([0-9a-f]{64})\.webp$/.exec(url)![1]!;
    for (const name of [`${'0'.repeat(64)}.webp`, `${hash.toUpperCase()}.webp`, `${hash}.png`, `${hash}.svg`, hash, `${hash}.webp.html`, `..%2F${hash}.webp`]) {
      await expectError(await ctx.request(`${PICTURES_PATH}/${name}`, { origin: null }), 404, 'notFound', 'file');
    }
  });

  test('a new picture replaces the old, whose address then answers 404; removing it brings the initials back', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const initials = (await me(ctx, token)).profileImageUrl;
    expect(initials).toMatch(/^data:image\/svg\+xml,/);
    const first = (await uploaded(ctx, token, await smallPng())).profileImageUrl;
    const second = (await uploaded(ctx, token, await landscapePng())).profileImageUrl;
    expect(second).not.toBe(first);
    await expectError(await ctx.request(first, { origin: null }), 404, 'notFound');
    const removed = await jsonOf<MemberInfo>(await ctx.authed(token, PICTURE, { method: 'DELETE' }), 200);
    expect(removed.profileImageUrl).toBe(initials);
    expect(await me(ctx, token)).toStrictEqual(removed);
    await expectError(await ctx.request(second, { origin: null }), 404, 'notFound');
    // Nothing to remove: the same answer.
    expect(await jsonOf<MemberInfo>(await ctx.authed(token, PICTURE, { method: 'DELETE' }), 200)).toStrictEqual(removed);
  });

  test('two members with the same picture share its address; it stays until neither has it', async () => {
    const ctx = await fresh();
    const ada = (await ctx.session(ADA)).token;
    const grace = (await ctx.session(GRACE)).token;
    const url = (await uploaded(ctx, ada, await smallPng())).profileImageUrl;
    expect((await uploaded(ctx, grace, await smallPng())).profileImageUrl).toBe(url);
    await ctx.authed(ada, PICTURE, { method: 'DELETE' });
    await fetchPicture(ctx, url);
    await ctx.authed(grace, PICTURE, { method: 'DELETE' });
    await expectError(await ctx.request(url, { origin: null }), 404, 'notFound');
  });

  test('an upload replaces a picture the site gave the member (an import\'s); a removal leaves the initials, not that one', async () => {
    const ctx = await fresh();
    const [id] = await ctx.store.createMembers([{ siteId: ctx.demo.site.id, email: 'pat@demo.localhost', status: 'approved', createdAt: ctx.now(), profileImageUrl: 'https://cdn.example/pat.png' }]);
    const token = await signedIn(ctx, id!);
    expect((await me(ctx, token)).profileImageUrl).toBe('https://cdn.example/pat.png');
    expect((await uploaded(ctx, token, await smallPng())).profileImageUrl).toMatch(/\.webp$/);
    expect((await jsonOf<MemberInfo>(await ctx.authed(token, PICTURE, { method: 'DELETE' }), 200)).profileImageUrl).toMatch(/^data:image\/svg\+xml,/);
  });

  test('what is not a JPEG, PNG or WebP by its bytes is 415, whatever it is called: SVG, HTML, GIF, JSON', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00f' } }).gif().toBuffer();
    for (const [body, type] of [
      [svg, 'image/png'],
      ['<!doctype html><p>hello', 'image/jpeg'],
      [gif, 'image/webp'],
      ['{"picture": true}', 'image/png'],
      [Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'), 'image/webp'],
    ] as const) {
      await expectError(await upload(ctx, token, body, type), 415, 'unsupportedPicture');
    }
    // A declared type the route does not take is refused before the body is read.
    for (const type of ['image/svg+xml', 'text/html', 'application/json', 'image/gif', 'multipart/form-data; boundary=x']) {
      await expectError(await upload(ctx, token, await smallPng(), type), 415, 'unsupportedPicture');
    }
  });

  test('a JPEG, PNG or WebP that cannot be decoded is 400: cut short, damaged, another format inside, empty', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const png = await landscapePng();
    const jpeg = await phoneJpeg();
    const damaged = Buffer.from(png);
    damaged.fill(0x55, 60, 400);
    for (const [body, type] of [
      [png.subarray(0, png.length - 200), 'image/png'],
      [jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg'],
      [damaged, 'image/png'],
      [Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), png]), 'image/jpeg'],
      [(await webp()).subarray(0, 40), 'image/webp'],
      ['', 'image/png'],
    ] as const) {
      const refused = await expectError(await upload(ctx, token, body, type), 400, 'invalidPicture');
      expect(refused.errors[0]!.message).toMatch(/cut short|damaged|empty/);
    }
  });

  test('decompression bombs are 400 before a pixel is decoded: a header declaring 3.6 billion pixels, a real 25-megapixel PNG', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const bomb = await expectError(await upload(ctx, token, headerBomb()), 400, 'invalidPicture');
    expect(bomb.errors[0]!.message).toMatch(/60000 × 60000 pixels; at most 25,000,000/);
    const big = await bigPng();
    expect(big.length).toBeLessThan(MAX_PICTURE_BYTES);
    const real = await expectError(await upload(ctx, token, big), 400, 'invalidPicture');
    expect(real.errors[0]!.message).toMatch(/5001 × 5000 pixels/);
  });

  test('over 2 MiB is 413, declared or counted while a chunked body arrives, which is cut off there', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const over = Buffer.concat([await smallPng(), Buffer.alloc(MAX_PICTURE_BYTES)]);
    const body = await expectError(await upload(ctx, token, over), 413, 'pictureTooLarge');
    expect(body.errors[0]!.message).toMatch(/larger than 2 MB \(2,097,152 bytes\)/);
    const counter = { pulled: 0, cancelled: false };
    const chunk = new Uint8Array(64 * 1024);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        counter.pulled += chunk.byteLength;
        controller.enqueue(counter.pulled === chunk.byteLength ? Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk.subarray(8)]) : chunk);
      },
      cancel() {
        counter.cancelled = true;
      },
    }, { highWaterMark: 0 });
    const res = await ctx.app.request(`http://svc.test${PICTURE}`, {
      method: 'PUT', headers: { origin: ORIGIN, authorization: `Bearer ${token}`, 'content-type': 'image/png' }, body: stream, duplex: 'half',
    } as RequestInit);
    await expectError(res, 413, 'pictureTooLarge');
    expect(counter.pulled).toBeLessThanOrEqual(MAX_PICTURE_BYTES + 2 * chunk.byteLength);
    expect(counter.cancelled).toBe(true);
  });

  test('a refused upload changes nothing: the member keeps the picture they had, and it is still served', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const info = await uploaded(ctx, token, await smallPng());
    await expectError(await upload(ctx, token, '<svg/>', 'image/svg+xml'), 415, 'unsupportedPicture');
    await expectError(await upload(ctx, token, '<svg/>'), 415, 'unsupportedPicture');
    await expectError(await upload(ctx, token, headerBomb()), 400, 'invalidPicture');
    await expectError(await upload(ctx, token, Buffer.alloc(MAX_PICTURE_BYTES + 1)), 413, 'pictureTooLarge');
    expect(await me(ctx, token)).toStrictEqual(info);
    await fetchPicture(ctx, info.profileImageUrl);
  });

  test(`${PICTURES_PER_MEMBER.limit} uploads an hour per member, refused ones counted: then 429 with Retry-After; other members are not held`, async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    for (let i = 0; i < PICTURES_PER_MEMBER.limit; i++) await expectError(await upload(ctx, token, 'not a picture'), 415, 'unsupportedPicture');
    const refused = await upload(ctx, token, await smallPng());
    await expectError(refused, 429, 'rateLimited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await me(ctx, token)).profileImageUrl).toMatch(/^data:/);
    await uploaded(ctx, (await ctx.session(GRACE)).token, await smallPng());
    ctx.advance(PICTURES_PER_MEMBER.windowMs);
    await uploaded(ctx, token, await smallPng());
  });

  test('without a session both are 401, and nothing is read', async () => {
    const ctx = await fresh();
    await expectError(await ctx.request(PICTURE, { method: 'PUT', raw: await smallPng(), headers: { 'content-type': 'image/png' } }), 401, 'unauthenticated');
    await expectError(await ctx.request(PICTURE, { method: 'DELETE' }), 401, 'unauthenticated');
  });
});

test('more pictures being encoded at once than the process takes: 429 with Retry-After, and nothing changes', async () => {
  const ctx = await buildMemberCtx(createMemoryStore);
  try {
    const busy = requestFor(await createServiceApp({ store: ctx.store, clock: ctx.now, pictures: { encode: () => Promise.reject(new BusyError(4)) } }));
    const { token } = await ctx.session(ADA);
    const refused = await busy(PICTURE, { method: 'PUT', token, raw: (await smallPng()) as BodyInit, headers: { 'content-type': 'image/png' } });
    const body = await expectError(refused, 429, 'rateLimited');
    expect(body.errors[0]!.message).toMatch(/encoding many pictures at once; try again in 4 s/);
    expect(refused.headers.get('retry-after')).toBe('4');
    expect((await me(ctx, token)).profileImageUrl).toMatch(/^data:/);
  } finally {
    await ctx.store.close();
  }
});

/** A session for a member the test made (through the store, as the demo's members are). */
async function signedIn(ctx: MemberCtx, memberId: number): Promise<string> {
  const token = `svc_session_${'p'.repeat(43)}`;
  const now = ctx.now();
  await ctx.store.createSession({
    siteId: ctx.demo.site.id, memberId, tokenHash: createHash('sha256').update(token).digest('hex'), createdAt: now, lastUsedAt: now, expiresAt: now + 3600_000,
  });
  return token;
}

test('the mock server (a browser has no sharp) refuses an upload in words, 400, and keeps nothing', async () => {
  const { createMockApp } = await import('../../mock-server/app');
  const { app, store, sites } = await createMockApp();
  const request = requestFor(app);
  const { token } = await jsonOf<{ token: string }>(await request(`${BASE}/sessions`, { method: 'POST', json: ADA }), 201);
  const refused = await request(PICTURE, { method: 'PUT', token, raw: (await smallPng()) as unknown as BodyInit, headers: { 'content-type': 'image/png' } });
  const error = await expectError(refused, 400, 'invalidPicture');
  expect(error.errors[0]!.message).toBe('The mock server keeps no pictures: upload one to svc serve');
  expect((await store.getMember(sites[0]!.site.id, sites[0]!.memberIds.ada!))!.profileImageUrl).toBeUndefined();
});
