// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * The member's picture on the account screen (screens/profile-picture.ts, decision 0039): a
 * labelled file field, "Upload picture", the picture in the header and on the page's
 * `<img data-svc-member-info="profileImageUrl">`, "Remove picture", the service's refusals in words.
 */
import { waitFor } from '@testing-library/dom';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import type { MemberInfo } from '../../../src/contract/member';
import { recordEvents } from '../support';
import { ADA, expectAllLabelled, fieldError, modal, siteSettings, startAt, waitForScreen } from './support';

const PAGE = '<img id="page-avatar" data-svc-member-info="profileImageUrl" src="/placeholder.png" alt="Your picture">';
const ACCOUNT = `/?svcopen=${encodeURIComponent('/member/account')}`;
const pageAvatar = () => document.getElementById('page-avatar')!;

/** Chooses `files` in the file field, as a person picking them in the browser's dialog. */
function choose(input: HTMLInputElement, ...files: File[]): void {
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

const png = async () =>
  new File([new Uint8Array(await sharp({ create: { width: 120, height: 90, channels: 3, background: '#36f' } }).png().toBuffer())], 'me.png', { type: 'image/png' });

async function openAccount(locale?: 'de') {
  const h = await startAt(ACCOUNT, {
    member: ADA,
    beforeStart: async (started) => {
      document.body.innerHTML = PAGE;
      if (locale) await siteSettings({ locale })(started);
    },
  });
  return { h, m: await waitForScreen(locale ? 'Ihr Konto' : 'Your account') };
}

test('the account screen has a labelled file field for JPEG, PNG or WebP and "Upload picture"; no "Remove picture" without one', async () => {
  const { m } = await openAccount();
  expectAllLabelled(m.root);
  const file = m.control('profileImage');
  expect(file.type).toBe('file');
  expect(file.accept).toBe('image/jpeg,image/png,image/webp');
  expect(m.q.getByLabelText('Profile picture')).toBe(file);
  expect(m.button('Upload picture').type).toBe('submit');
  expect(m.q.queryByRole('button', { name: 'Remove picture' })).toBeNull();
  // The screen still opens on its menu, not on the file field.
  expect(m.root.activeElement?.textContent).toBe('Your memberships');
  // Initials in the header, the page's own placeholder.
  expect(m.root.querySelector('.who img')).toBeNull();
  expect(pageAvatar().getAttribute('src')).toBe('/placeholder.png');
});

test('uploading a PNG: "Saved.", the picture in the header, Service.member.info with its URL, the page\'s <img> showing it; removing it puts all back', async () => {
  const { h, m } = await openAccount();
  const events = recordEvents();
  choose(m.control('profileImage'), await png());
  m.button('Upload picture').click();
  await waitFor(() => expect(modal().root.querySelector('.notice')?.textContent).toBe('Saved.'));
  const info = (events.of('Service.member.info').at(-1) as { memberInfo: MemberInfo }).memberInfo;
  expect(info.profileImageUrl).toMatch(new RegExp(`^${h.mock.origin}/member/v1/pictures/[0-9a-f]{64}\\.webp$`));
  expect(pageAvatar().getAttribute('src')).toBe(info.profileImageUrl);
  const header = modal().root.querySelector<HTMLImageElement>('.who img.avatar')!;
  expect([header.getAttribute('src'), header.getAttribute('alt')]).toEqual([info.profileImageUrl, '']);
  // What the service keeps is the picture re-encoded.
  const served = await fetch(info.profileImageUrl);
  expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/webp']);

  modal().button('Remove picture').click();
  await waitFor(() => expect(modal().q.queryByRole('button', { name: 'Remove picture' })).toBeNull());
  expect(modal().root.querySelector('.notice')?.textContent).toBe('Saved.');
  const after = (events.of('Service.member.info').at(-1) as { memberInfo: MemberInfo }).memberInfo;
  expect(after.profileImageUrl).toMatch(/^data:image\/svg\+xml,/);
  expect(pageAvatar().getAttribute('src')).toBe('/placeholder.png');
  expect(modal().root.querySelector('.who img')).toBeNull();
});

test('what the service refuses is said in words above the button, and nothing changes; no file chosen is said next to the field', async () => {
  const { h, m } = await openAccount();
  m.button('Upload picture').click();
  await waitFor(() => expect(fieldError(m.root, m.control('profileImage'))).toBe('required'));
  // An SVG named .png: the service reads its bytes.
  choose(m.control('profileImage'), new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'me.png', { type: 'image/png' }));
  m.button('Upload picture').click();
  await waitFor(() => expect(m.alert()).toBe('Choose a JPEG, PNG or WebP picture.'));
  const bytes = new Uint8Array(await (await png()).arrayBuffer());
  choose(m.control('profileImage'), new File([bytes.subarray(0, bytes.length - 30)], 'cut.png', { type: 'image/png' }));
  m.button('Upload picture').click();
  await waitFor(() => expect(m.alert()).toBe('The picture cannot be read (damaged, or over 25 megapixels). Choose another.'));
  expect(h.service.getMemberInfo()).toMatchObject({ memberInfo: { profileImageUrl: expect.stringMatching(/^data:/) } });
  expect(pageAvatar().getAttribute('src')).toBe('/placeholder.png');
  expect(modal().title).toBe('Your account');
});

test('in German: the field, the button and a refusal in the site\'s language', async () => {
  const { m } = await openAccount('de');
  expect(m.q.getByLabelText('Profilbild')).toBe(m.control('profileImage'));
  const big = new File([new Uint8Array(2 * 1024 * 1024 + 1).fill(0xff)], 'big.jpg', { type: 'image/jpeg' });
  choose(m.control('profileImage'), big);
  m.button('Bild hochladen').click();
  await waitFor(() => expect(m.alert()).toBe('Das Bild ist zu groß: höchstens 2 MB.'));
});
