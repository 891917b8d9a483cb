/**
 * A site with something on every modal screen, for accessibility.test.ts and the screens
 * gallery: plans Monthly (subscription), Lifetime (one-time, tax and rich text),
 * Community (free), Workshop (one-time) and Yearly (recommended, with features), the demo site's custom sign-up fields, a member menu,
 * a content space opened by Monthly (an article and a video) and one opened only by Community and
 * Lifetime. On top of that, an optional site theme (issue 14), written through the store.
 *
 * `startScreensSite` starts the service and a page server for it, and signs up a member on
 * Monthly and Workshop with three invoices (one a declined charge) and a saved card.
 */
import type { SignupFieldValue, SiteTheme } from '../../../src/contract/member';
import { systemClock } from '../../../src/service/domain/clock';
import { defineContentSpace } from '../../../src/service/domain/content';
import { definePlan } from '../../../src/service/domain/plans';
import { demoSiteFile } from '../../../src/service/seed/demo-site-file';
import type { SignupFieldRecord } from '../../../src/service/store/records';
import { SITE_DOMAIN } from './chromium';
import { createMember, type TestMember } from './members';
import { startPageServer, type PageServer } from './page-server';
import { startService, SUBDOMAIN, type RunningService, type ServiceOptions } from './service';
import { HOST_A } from './suite';

/** Where the content's video is; a test answers the player's requests itself (204). */
export const MEDIA_URL = `http://media.${SITE_DOMAIN}`;

/** The content's names; the dialogs showing an item are titled with them. */
export const ARTICLE = 'Getting started';
export const VIDEO = 'Welcome video';
/** The item no plan of the member's opens (Community and Lifetime do): its paywall is titled with it. */
export const CLOSED = 'Community call';

/** Ids a screen's path needs: `{lifetime}`, `{community}`, `{article}`, `{video}`, `{closed}`. */
export interface ScreensSiteIds {
  lifetime: string;
  /** The yearly subscription: to the member on Monthly, a change of plan (at the period's end: cheaper by the day). */
  yearly: string;
  community: string;
  article: string;
  video: string;
  closed: string;
}

export interface ScreensSite {
  service: RunningService;
  pages: PageServer;
  /** `http://a.shop.example:<port>` */
  origin: string;
  ids: ScreensSiteIds;
  fields: SignupFieldRecord[];
  /** Logged in nowhere yet: a test logs it in (`Service.login`) in its own browser context. */
  member: TestMember;
  stop(): Promise<void>;
}

export interface ScreensSiteOptions {
  /** The site's theme (`store.updateSite(site.id, { theme })`); the widget's own look without it. */
  theme?: SiteTheme;
  tempPrefix?: string;
  /** The member's e-mail; short, so it does not scroll inside its field on a phone. */
  email?: string;
}

/** Answers for the required custom fields, so a member can sign up. */
export function requiredAnswers(fields: SignupFieldRecord[]): Record<string, SignupFieldValue> {
  const answers: Record<string, SignupFieldValue> = {};
  for (const field of fields.filter((f) => f.required)) {
    answers[field.id] = field.type === 'checkbox' ? true : field.type === 'multiple-select' ? [field.options![0]!.value] : (field.options?.[0]?.value ?? 'Acme');
  }
  return answers;
}

export async function startScreensSite(options: ScreensSiteOptions = {}): Promise<ScreensSite> {
  const ids: ScreensSiteIds = { lifetime: '', community: '', yearly: '', article: '', video: '', closed: '' };
  let fields: SignupFieldRecord[] = [];
  const setup: ServiceOptions['setup'] = async (store, site) => {
    const define = (definition: Parameters<typeof definePlan>[3]) => definePlan(store, systemClock, site.id, definition);
    const monthly = await define({
      name: 'Monthly',
      type: 'subscription',
      description: '<p>Every issue, <strong>every month</strong>.</p>',
      billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } },
    });
    const lifetime = await define({
      name: 'Lifetime',
      type: 'oneTimePayment',
      description: '<p>Pay once, keep <em>everything</em>: the archive, the courses and the <a href="https://shop.example/faq">community</a>.</p>',
      expiration: { mode: 'none' },
      billing: { price: 199, currency: 'usd', taxPercentage: 20, taxDescription: '<p>VAT at 20%</p>' },
    });
    ids.lifetime = lifetime.publicId;
    const community = await define({ name: 'Community', type: 'free', expiration: { mode: 'none' } });
    ids.community = community.publicId;
    await define({ name: 'Workshop', type: 'oneTimePayment', expiration: { mode: 'none' }, billing: { price: 49, currency: 'usd' } });
    // Sold monthly and yearly: the plans screen's switch, on the yearly one the owner recommends.
    ids.yearly = (await define({
      name: 'Yearly', type: 'subscription', highlight: true, features: ['Every issue', 'The whole archive', 'Two months free'],
      billing: { price: 120, currency: 'usd', interval: { count: 1, unit: 'year' } },
    })).publicId;
    await store.createSignupFields(demoSiteFile().signupFields.map((field, position) => ({ ...field, siteId: site.id, position })));
    fields = await store.listSignupFields(site.id);
    await store.updateSite(site.id, { memberMenu: true, ...(options.theme && { theme: options.theme }) });
    [ids.article, ids.video] = (
      await defineContentSpace(store, site.id, {
        name: 'Library',
        planIds: [monthly.id],
        items: [
          {
            name: ARTICLE,
            type: 'article',
            body:
              '<h3>Before the first issue</h3><p>Read the <a href="https://shop.example/guide">reading guide</a>, then <strong>say hello</strong> in the forum.</p>' +
              '<ul><li>New issues on the first of the month</li><li>The archive goes back to 2019</li></ul><blockquote>Questions? Write to us.</blockquote>',
          },
          { name: VIDEO, type: 'video', url: `${MEDIA_URL}/welcome.mp4` },
        ],
      })
    ).map(String) as [string, string];
    [ids.closed] = (
      await defineContentSpace(store, site.id, {
        name: 'Community corner',
        planIds: [community.id, lifetime.id],
        items: [{ name: CLOSED, type: 'article', body: '<p>The monthly call with the whole community.</p>' }],
      })
    ).map(String) as [string];
  };

  const service = await startService({ tempPrefix: options.tempPrefix ?? 'svc-screens-', setup });
  let pages: PageServer | undefined;
  try {
    pages = await startPageServer(`${service.url}/scripts/widgets.js`);
    const origin = pages.url(HOST_A).replace(/\/$/, '');
    const member = await createMember(service.url, origin, {
      email: options.email ?? 'ada@screens.example',
      firstName: 'Ada',
      lastName: 'Lovelace',
      customFields: requiredAnswers(fields),
    });
    const plans = (await (await fetch(`${service.url}/member/v1/sites/${SUBDOMAIN}/plans`, { headers: { origin } })).json()) as { name: string; publicId: string }[];
    // Three invoices: Monthly paid, a declined charge at Workshop (0341: the card is saved, then
    // declined when charged), then Workshop paid; the card 4242 stays saved.
    // As the widget pays: the card to the test processor's endpoint, then its payment method.
    const post = (path: string, body: unknown) =>
      fetch(`${service.url}/member/v1/sites/${SUBDOMAIN}${path}`, {
        method: 'POST',
        headers: { origin, authorization: `Bearer ${member.session.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const buy = async (plan: string, cardNumber: string, status: number) => {
      const card = await post('/test-payment-methods', { cardNumber, cardExpiry: '12/34', cardCvc: '123' });
      const { id } = (await card.json()) as { id: string };
      const response = await post('/memberships', { planPublicId: plans.find((p) => p.name === plan)!.publicId, paymentMethodId: id });
      if (response.status !== status) throw new Error(`${plan} with ${cardNumber} answered ${response.status}: ${await response.text()}`);
    };
    await buy('Monthly', '4242 4242 4242 4242', 201);
    await buy('Workshop', '4000 0000 0000 0341', 402);
    await buy('Workshop', '4242 4242 4242 4242', 201);
    const running = pages;
    return {
      service,
      pages: running,
      origin,
      ids,
      fields,
      member,
      stop: async () => {
        await running.close();
        await service.stop();
      },
    };
  } catch (error) {
    await pages?.close();
    await service.stop();
    throw error;
  }
}
