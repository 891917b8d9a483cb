// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * svcopen=/content/:contentId/:viewingPreference? (spec 4.1) in happy-dom, on the mock service's
 * library (mock-server/fixtures.ts): "log in first"; an article, a player or a link in the dialog
 * (`popup`); a download or the link's page (`download`, the default); no access offers the plans
 * that open it; every viewing the service grants is recorded for the Admin API.
 */
import { waitFor } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { ADA, GRACE } from '../support';
import { catchNavigation, dialogText } from './plan-support';
import { fill, hosts, modal, startAt, type svcopen, waitForScreen } from './support';

type H = Awaited<ReturnType<typeof svcopen>>;
const ids = (h: H) => h.mock.sites[0]!.contentIds;
const at = (path: string) => `/?svcopen=${encodeURIComponent(path)}`;
const viewsOf = async (h: H, memberKey: 'ada' | 'grace') =>
  (await h.mock.store.listContentViews(h.mock.sites[0]!.site.id, { memberId: h.mock.sites[0]!.memberIds[memberKey] }, { limit: 100 })).items;

/** Starts logged in as Ada (on every plan of the library) at the content path built from the item's key. */
async function openAsAda(path: (h: H) => string) {
  let target = '';
  const h = await startAt('/', {
    member: ADA,
    beforeStart: (started) => {
      target = path(started);
      history.replaceState(null, '', at(target));
    },
  });
  return { h, target };
}

test('an article opens in the dialog with its name as title and its text as sanitized markup, and the viewing is recorded', async () => {
  const { h } = await openAsAda((h) => `/content/${ids(h).welcome}`);
  const m = await waitForScreen('Welcome');
  expect(m.root.querySelector('.rich h3')?.textContent).toBe('Welcome');
  expect(m.root.querySelector('.rich strong')?.textContent).toBe('tour');
  const views = await viewsOf(h, 'ada');
  expect(views.map((v) => [v.nodeId, v.node.name, v.space.name])).toEqual([[ids(h).welcome, 'Welcome', 'Getting started']]);
  expect(location.search).toBe('');
});

test('a video with popup plays in the dialog: a <video controls> with the item’s address', async () => {
  await openAsAda((h) => `/content/${ids(h).tour}/popup`);
  const m = await waitForScreen('Tour of the library');
  const video = m.root.querySelector('video')!;
  expect(video.hasAttribute('controls')).toBe(true);
  expect(video.getAttribute('src')).toBe('https://demo.localhost/library/tour.mp4');
});

test('an audio item with popup plays in the dialog; a link with popup is a link that opens in a new tab', async () => {
  const first = await openAsAda((h) => `/content/${ids(h).interview}/popup`);
  const audio = (await waitForScreen('Interview: ten years in')).root.querySelector('audio')!;
  expect(audio.getAttribute('src')).toBe('/examples/library/chime.wav');
  // The page loads again, at the link.
  history.replaceState(null, '', at(`/content/${ids(first.h).reading}/popup`));
  first.h.start();
  const m = await waitForScreen('Further reading');
  const link = m.q.getByRole('link', { name: 'Open' });
  expect([link.getAttribute('href'), link.getAttribute('target'), link.getAttribute('rel')]).toEqual([
    'https://demo.localhost/reading', '_blank', 'noopener noreferrer',
  ]);
});

test('a file (download is the default): the browser fetches it, the dialog says so and offers it again', async () => {
  const navigation = catchNavigation();
  const { h } = await openAsAda((h) => `/content/${ids(h).starterKit}`);
  const m = await waitForScreen('Starter kit');
  await waitFor(() => expect(navigation.urls).toEqual(['/examples/library/starter-kit.pdf']));
  expect(m.q.getByRole('status').textContent).toBe('Your download of “Starter kit” has started.');
  expect(m.q.getByRole('link', { name: 'Download again' }).getAttribute('href')).toBe('/examples/library/starter-kit.pdf');
  expect(hosts()).toHaveLength(1);
  expect(await viewsOf(h, 'ada')).toHaveLength(1);
});

test('a file asked for as popup is downloaded anyway (a file has nothing to show); a link with download leaves for its page', async () => {
  const navigation = catchNavigation();
  const { h } = await openAsAda((h) => `/content/${ids(h).starterKit}/popup`);
  await waitForScreen('Starter kit');
  await waitFor(() => expect(navigation.urls).toEqual(['/examples/library/starter-kit.pdf']));
  history.replaceState(null, '', at(`/content/${ids(h).reading}/download`));
  h.start();
  await waitFor(() => expect(navigation.urls).toEqual(['/examples/library/starter-kit.pdf', 'https://demo.localhost/reading']));
  await waitFor(() => expect(hosts()).toHaveLength(0));
});

test('logged out: the paywall names the item, its plans with their prices and "Already a member? Log in", which opens it in the same dialog', async () => {
  const h = await startAt('/', { beforeStart: (started) => history.replaceState(null, '', at(`/content/${ids(started).welcome}/popup`)) });
  const paywall = await waitForScreen('Welcome');
  expect(paywall.q.getByRole('alert').textContent).toBe('“Welcome” is for members of these plans:');
  const cards = [...paywall.root.querySelectorAll('ul.cards > li')].map((li) => [li.querySelector('h3')!.textContent, li.querySelector('.price')!.textContent]);
  expect(cards).toEqual([['Community', 'Free'], ['Lifetime', '$199.00 once'], ['Course in three payments', '$60.00 / month'], ['Monthly', '$12.00 / month']]);
  expect(dialogText()).toContain('Already a member? Log in');
  paywall.q.getByRole('button', { name: 'Log in' }).click();
  const login = await waitForScreen('Log in');
  fill(login.control('email'), ADA.email);
  fill(login.control('password'), ADA.password);
  login.form().requestSubmit();
  const m = await waitFor(() => {
    const shown = modal();
    expect(shown.root.querySelector('.rich')).not.toBeNull();
    return shown;
  });
  expect(m.title).toBe('Welcome');
  expect(m.host).toBe(login.host);
  expect(await viewsOf(h, 'ada')).toHaveLength(1);
});

test('a member whose plans do not open it: the item named, the public plans that do with their prices, each leading to its sign-up; nothing is recorded', async () => {
  const h = await startAt('/', {
    member: GRACE,
    beforeStart: (started) => history.replaceState(null, '', at(`/content/${started.mock.sites[0]!.contentIds.interview}`)),
  });
  const m = await waitForScreen('Interview: ten years in');
  expect(m.q.getByRole('alert').textContent).toBe('“Interview: ten years in” is for members of these plans:');
  expect([...m.root.querySelectorAll('ul.cards .price')].map((p) => p.textContent)).toEqual(['$199.00 once', '$60.00 / month', '$12.00 / month']);
  const choices = m.q.getAllByRole('button').map((b) => b.textContent).filter((text) => text !== 'Close');
  // A member: no "Log in".
  expect(choices).toEqual(['Choose: Lifetime', 'Choose: Course in three payments', 'Choose: Monthly']);
  m.q.getByRole('button', { name: 'Choose: Monthly' }).click();
  await waitForScreen('Monthly');
  expect(dialogText()).toContain('$12.00 / month');
  expect(await viewsOf(h, 'grace')).toEqual([]);
});

test('an id with no content: the dialog says it does not exist', async () => {
  await startAt(at('/content/99999'), { member: ADA });
  const m = await waitForScreen('Something went wrong');
  expect(m.q.getByRole('alert').textContent).toBe('This content does not exist.');
});
