/** What a visitor reads of a site (../site-routes.ts) and protected content (../content-routes.ts). */
import { CONTENT_VIEWS } from '../../../contract/member';
import type { OpenApiObject } from '../../openapi/document';
import { arrayOf, operation, query } from './operation';

const site = (path: string) => `/sites/{subdomain}${path}`;

export const sitePaths: Record<string, Record<string, OpenApiObject>> = {
  [site('/config')]: {
    get: operation({
      operationId: 'getSiteConfig',
      summary: 'The site\'s settings for the widget',
      description:
        'Name, domain, currency, locale, the labels of a checkbox answer, the custom sign-up fields, whether a signed-in member lands on ' +
        'the member menu, what follows a registration that names no plan, the site\'s `theme` when it has one and `payments` on a site ' +
        'that takes payments through Stripe (the widget loads Stripe.js from `scriptUrl`).',
      tag: 'Site',
      answers: { 200: { description: 'The site\'s settings.', schema: 'SiteConfig' } },
    }),
  },
  [site('/plans')]: {
    get: operation({
      operationId: 'listPlans',
      summary: 'The plans open for sign-up',
      description:
        'The enabled public plans, in the site\'s order, each with what signing up now costs (`dueNow`), what follows (`recurring`), ' +
        'trial, fee, tax, expiry and billing dates.',
      tag: 'Site',
      answers: { 200: { description: 'The plans; `[]` when there are none.', schema: arrayOf('PlanOffer') } },
    }),
  },
  [site('/plans/{publicId}')]: {
    get: operation({
      operationId: 'getPlan',
      summary: 'One plan open for sign-up',
      description: 'Any enabled plan, listed or not (a sign-up link may name an unlisted plan), by its public id or else by its key in the site file (`yearly`).',
      tag: 'Site',
      parameters: [{ name: 'publicId', in: 'path', required: true, description: 'The plan\'s public id or key.', schema: { type: 'string', minLength: 1 } }],
      answers: { 200: { description: 'The plan.', schema: 'PlanOffer' } },
    }),
  },
  [site('/content/{contentId}')]: {
    get: operation({
      operationId: 'getContent',
      summary: 'A protected content item',
      description:
        'The item, when an active membership of the member (not past its expiry date) is on a plan that opens its space; the viewing is ' +
        'recorded (the Admin API\'s `/contentLibrary/views`). `view` is the one used: an `article` only `popup` (its sanitized `body`), a ' +
        '`file` only `download`, the others either (`url`). 403 `noAccess` when none of the member\'s plans opens it.',
      tag: 'Content',
      session: 'required',
      parameters: [
        { $ref: '#/components/parameters/ContentId' },
        query('view', 'How to show it; anything else is 400 `invalidField` on `view`.', { type: 'string', enum: [...CONTENT_VIEWS], default: 'download' }),
      ],
      answers: { 200: { description: 'The item.', schema: 'ContentItem', noStore: true } },
      errors: { 400: ['invalidField'], 403: ['noAccess'] },
    }),
  },
  [site('/content/{contentId}/plans')]: {
    get: operation({
      operationId: 'listContentPlans',
      summary: 'The plans that open a content item',
      description: 'The item\'s name and the enabled public plans that open it, priced as `GET /plans` prices them: the widget\'s paywall.',
      tag: 'Content',
      parameters: [{ $ref: '#/components/parameters/ContentId' }],
      answers: { 200: { description: 'The item\'s name and its plans.', schema: 'ContentAccessPlans' } },
    }),
  },
};
