/**
 * A member's picture in real Chromium (decision 0039): chosen in the account screen's file field,
 * uploaded to the service, re-encoded, and shown by the page's `<img data-svc-member-info=
 * "profileImageUrl">`, loaded from the service's origin (another origin than the page's); then
 * removed, and the page's image has no source again.
 */
import sharp from 'sharp';
import { expect } from 'vitest';
import { createMember } from './support/members';
import { browserTest, HOST_A, useBrowserSuite } from './support/suite';

const suite = useBrowserSuite();

const PICTURE_URL = /\/member\/v1\/pictures\/[0-9a-f]{64}\.webp$/;

browserTest('a PNG uploaded on the account screen is what the page\'s <img> shows; removed, the page shows none', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  const page = await suite.open(context, HOST_A, 'profile.html');
  const raw = page.page;
  await raw.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  await page.waitForEvent('Service.member.info');
  // No picture yet: the page's image has no source (the initials are the dialog's, not a picture).
  expect(await raw.locator('#avatar').getAttribute('src')).toBeNull();

  await raw.evaluate(() => window.Service.open('/member/account'));
  const dialog = raw.getByRole('dialog', { name: 'Your account' });
  await dialog.waitFor({ state: 'visible', timeout: 5_000 });
  const png = await sharp({ create: { width: 800, height: 600, channels: 4, background: { r: 220, g: 60, b: 40, alpha: 1 } } }).png().toBuffer();
  await dialog.getByLabel('Profile picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await dialog.getByRole('button', { name: 'Upload picture' }).click();
  await page.waitForEvent('Service.member.info', { count: 2 });
  await dialog.getByText('Saved.').waitFor({ timeout: 5_000 });

  const avatar = raw.locator('#avatar');
  const src = (await avatar.getAttribute('src'))!;
  expect(src).toMatch(PICTURE_URL);
  expect(src.startsWith(suite.service.url)).toBe(true);
  // Loaded and decoded from the service's origin: the re-encoded picture, 512 × 384.
  await raw.waitForFunction(() => {
    const image = document.getElementById('avatar') as HTMLImageElement;
    return image.complete && image.naturalWidth > 0;
  });
  expect(await avatar.evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight])).toEqual([512, 384]);
  const header = dialog.locator('.who img.avatar');
  expect(await header.getAttribute('src')).toBe(src);
  const info = await raw.evaluate(() => window.Service.getMemberInfo());
  expect(info.isLoggedIn && info.memberInfo.profileImageUrl).toBe(src);

  await dialog.getByRole('button', { name: 'Remove picture' }).click();
  await page.waitForEvent('Service.member.info', { count: 3 });
  await raw.waitForFunction(() => !document.getElementById('avatar')!.hasAttribute('src'));
  await dialog.getByRole('button', { name: 'Remove picture' }).waitFor({ state: 'detached', timeout: 5_000 });
  expect(await dialog.locator('.who img').count()).toBe(0);
  // The picture no member has any more is gone from the service.
  expect((await fetch(src)).status).toBe(404);
  expect(page.log.filter((line) => line.startsWith('pageerror:') || line.startsWith('console.error:'))).toEqual([]);
});
