/** What a visitor reads of a site before signing in: its settings for the widget, and the plans open for sign-up. */
import type { SiteConfig } from '../../contract/member';
import { checkboxLabels } from '../domain/yes-no';
import { jsonResponse } from '../http/json';
import type { MemberApp, MemberContext } from './context';
import { MemberError } from './errors';
import { toFieldDefinition } from './member-info';
import { findOpenPlan, listedPlans, toPlanOffer } from './plan-offers';

/** Stripe.js as Stripe serves it: Stripe requires sites to load it from there. */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

export function siteRoutes(app: MemberApp, { store, clock, stripeJsUrl = STRIPE_JS_URL }: Pick<MemberContext, 'store' | 'clock'> & { stripeJsUrl?: string | undefined }): void {
  app.get('/sites/:subdomain/config', async (c) => {
    const site = c.get('site');
    const { payments } = site;
    const body: SiteConfig = {
      subdomain: site.subdomain,
      name: site.name,
      domain: site.domain,
      currency: site.defaultCurrency,
      locale: site.locale,
      checkboxLabels: site.checkboxLabels ?? checkboxLabels(site.locale),
      ...(site.theme && { theme: site.theme }),
      signupFields: (await store.listSignupFields(site.id)).map(toFieldDefinition),
      memberMenu: site.memberMenu ?? false,
      afterRegistration: site.afterRegistration ?? { action: 'stay' },
      ...(payments?.processor === 'stripe' && { payments: { processor: 'stripe', publishableKey: payments.publishableKey, scriptUrl: stripeJsUrl } }),
    };
    return jsonResponse(body);
  });

  // The plans a visitor may sign up to: listed ones are public; any open one opens by its link.
  app.get('/sites/:subdomain/plans', async (c) => {
    const now = clock();
    return jsonResponse((await listedPlans(store, c.get('site').id)).map((p) => toPlanOffer(p, now)));
  });
  app.get('/sites/:subdomain/plans/:publicId', async (c) => {
    const plan = await findOpenPlan(store, c.get('site').id, c.req.param('publicId'));
    if (!plan) throw MemberError.of(404, 'notFound', 'No plan with that id is open for sign-up', 'publicId');
    return jsonResponse(toPlanOffer(plan, clock()));
  });
}
