/** defineContentSpace: what a site owner's library must hold before anything is written. */
import { expect, test } from 'vitest';
import { ContentInputError, defineContentSpace } from '../../src/service/domain/content';
import { createMemoryStore } from '../../src/service/store/memory';

async function site() {
  const store = createMemoryStore();
  const { id } = await store.createSite({ name: 'S', subdomain: 's', domain: 's.example', defaultCurrency: 'usd', locale: 'en', adminApiEnabled: true, createdAt: 0 });
  const plan = await store.createPlan({ siteId: id, publicId: 'gold', name: 'Gold', status: 'enabled', isPublic: true, colorCode: '#000000', createdAt: 0, type: 'free', expiration: { mode: 'none' } });
  return { store, siteId: id, planId: plan.id };
}

test('articles are cut to the rich-text allowlist when saved; addresses are kept normalized', async () => {
  const { store, siteId, planId } = await site();
  const [article, video] = await defineContentSpace(store, siteId, {
    name: 'Library',
    planIds: [planId],
    items: [
      { name: 'Hello', type: 'article', body: '<p onclick="x()">Hi <script>alert(1)</script><strong>there</strong></p>' },
      { name: 'Talk', type: 'video', url: 'HTTPS://CDN.example.com/talk.mp4' },
    ],
  });
  expect((await store.getContentItem(siteId, article!))?.body).toBe('<p>Hi <strong>there</strong></p>');
  expect(await store.getContentItem(siteId, video!)).toMatchObject({ url: 'https://cdn.example.com/talk.mp4', planIds: [planId] });
});

test('a path on the site itself is kept as a path, for the browser to resolve against the page', async () => {
  const { store, siteId, planId } = await site();
  const [file] = await defineContentSpace(store, siteId, { name: 'Library', planIds: [planId], items: [{ name: 'Kit', type: 'file', url: '/files/kit.pdf?v=2' }] });
  expect((await store.getContentItem(siteId, file!))?.url).toBe('/files/kit.pdf?v=2');
});

test.each([
  ['an article without a body', { name: 'A', type: 'article' as const }],
  ['an article whose body is only markup the allowlist drops', { name: 'A', type: 'article' as const, body: '<script>x</script>' }],
  ['a file without an address', { name: 'F', type: 'file' as const }],
  ['a link to a javascript: address', { name: 'L', type: 'link' as const, url: 'javascript:alert(1)' }],
  ['a protocol-relative address (another host)', { name: 'L', type: 'file' as const, url: '//evil.example/x.pdf' }],
  ['a backslash path (another host in some browsers)', { name: 'L', type: 'file' as const, url: '/\\evil.example/x.pdf' }],
  ['a relative path without its leading slash', { name: 'L', type: 'file' as const, url: 'files/x.pdf' }],
  ['an item without a name', { name: '  ', type: 'audio' as const, url: 'https://x.example/a.mp3' }],
])('%s is refused and nothing is written', async (_what, item) => {
  const { store, siteId, planId } = await site();
  await expect(
    defineContentSpace(store, siteId, { name: 'Library', planIds: [planId], items: [{ name: 'Ok', type: 'file', url: 'https://x.example/ok.pdf' }, item] }),
  ).rejects.toThrow(ContentInputError);
  expect(await store.listContentNodes(siteId)).toEqual([]);
});
