/** GET /member/v1/sites/{subdomain}/config: what the widget needs before anyone signs in. */
import { expect, test } from 'vitest';
import type { SiteConfig } from '../../src/contract/member';
import { BASE, expectError, forEachStore, jsonOf } from './support';

forEachStore((fresh) => {
  test('config answers the site name, domain, currency, locale, its Yes and No, the five sign-up fields with labels and options, and the member menu and after-registration settings', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    const config = await jsonOf<SiteConfig>(await ctx.request(`${BASE}/config`), 200);
    expect(config).toStrictEqual({
      subdomain: 'demo',
      name: 'Demo Academy',
      domain: 'demo.localhost',
      currency: 'usd',
      locale: 'en',
      checkboxLabels: { yes: 'Yes', no: 'No' },
      signupFields: [
        { id: f.company, type: 'text', label: 'Company', required: false },
        { id: f.bio, type: 'textarea', label: 'About you', required: false },
        {
          id: f.role, type: 'select', label: 'Role', required: true,
          options: [{ label: 'Developer', value: 'developer' }, { label: 'Designer', value: 'designer' }, { label: 'Other', value: 'other' }],
        },
        {
          id: f.topics, type: 'multiple-select', label: 'Topics', required: false,
          options: [{ label: 'Widgets', value: 'widgets' }, { label: 'APIs', value: 'apis' }, { label: 'Billing', value: 'billing' }],
        },
        { id: f.terms, type: 'checkbox', label: 'I accept the terms', required: true },
      ],
      memberMenu: true,
      afterRegistration: { action: 'plans' },
    });
  });

  test('config of the other site has its own settings and no sign-up fields', async () => {
    const ctx = await fresh();
    const config = await jsonOf<SiteConfig>(await ctx.request('/member/v1/sites/other/config', { origin: null }), 200);
    expect(config).toMatchObject({ subdomain: 'other', name: 'Other Shop', domain: 'other.example', currency: 'eur', locale: 'de', checkboxLabels: { yes: 'Ja', no: 'Nein' }, signupFields: [] });
    // A site that changed neither setting: no menu, and the dialog closes after registering.
    expect(config.memberMenu).toBe(false);
    expect(config.afterRegistration).toStrictEqual({ action: 'stay' });
  });

  test('config of an unknown subdomain is a 404 notFound JSON error body', async () => {
    const ctx = await fresh();
    await expectError(await ctx.request('/member/v1/sites/nosuchsite/config', { origin: null }), 404, 'notFound');
    await expectError(await ctx.request('/member/v1/sites/nosuchsite/config'), 404, 'notFound');
  });
});
