/**
 * The site file's `webhooks:` (issue 31): the site's endpoints, each by its URL, the events it
 * wants and the name of the environment variable of `svc serve` that holds its signing secret.
 * The secret itself is never in the file (a file is shared, committed, exported): the sender
 * reads the variable at each delivery. Endpoints added with `svc webhooks add` are not the file's
 * and apply leaves them alone (./changes/webhooks.ts).
 */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../contract/webhooks';
import { whenRight } from '../domain/plan-schema';
import { checkEndpointUrl } from '../webhooks/address-policy';
import { formatPath } from './cross-check';
import { described } from './described';

/** A variable's name as `svc webhooks` and the sender expect it: `SHOP_WEBHOOK_SECRET`. */
export const WEBHOOK_SECRET_ENV = /^[A-Z_][A-Z0-9_]*$/;

const eventName = z.enum(WEBHOOK_EVENT_TYPES, {
  error: (issue) => `unknown event ${JSON.stringify(issue.input)}; the events are ${WEBHOOK_EVENT_TYPES.join(', ')}`,
});

/** The events in WEBHOOK_EVENT_TYPES order, each once: how the CLI stores them too, so a reordered list is no change. */
const events = z
  .array(eventName)
  .min(1, 'names at least one event (leave events out for every event)')
  .transform((names) => WEBHOOK_EVENT_TYPES.filter((type) => names.includes(type)));

type EntryInput = { url: string; allowPrivate?: boolean };

/**
 * The address policy needs `allowPrivate` beside the URL, so it is a rule of the entry; it runs
 * whenever those two fields are right themselves, whatever else is wrong (issue 27).
 */
function urlRule(entry: EntryInput, ctx: z.core.$RefinementCtx): void {
  const allowPrivate = entry.allowPrivate === true;
  const url = checkEndpointUrl(entry.url, { allowPrivate });
  if (url instanceof URL) return;
  const hint = url.allowedPrivately ? ' (for a receiver on this machine or your network, add allowPrivate: true)' : '';
  ctx.addIssue({ code: 'custom', path: ['url'], message: `${url.problem}${hint}` });
}

/** The URL as the store keeps it (WHATWG's form: `https://Example.com` is `https://example.com/`); the text as written when it is no URL. */
export const endpointUrlText = (text: string): string => (URL.canParse(text) ? new URL(text).href : text);

export const webhookEntrySchema = z
  .strictObject({
    url: described(
      z.string().max(2000).transform(endpointUrlText),
      'Where deliveries are POSTed: https on a public address (http and private addresses only with allowPrivate).',
    ),
    events: described(events, 'The events it receives; left out, every event (also those added later).').optional(),
    secretEnv: described(
      z.string().max(100).regex(WEBHOOK_SECRET_ENV, 'the name of an environment variable: capital letters, digits and _, not starting with a digit'),
      'The environment variable of `svc serve` that holds the signing secret (whsec_…); never the secret itself.',
    ),
    allowPrivate: described(z.boolean(), 'For local development: allow http:// and loopback or private addresses. Default false.').default(false),
  })
  .superRefine(urlRule, whenRight('url', 'allowPrivate'));

/** Each URL once: apply matches endpoints by it. Compared as the store keeps it. */
export const webhooksSchema = z.array(webhookEntrySchema).superRefine(
  (list, ctx) => {
    const first = new Map<string, number>();
    list.forEach((entry, i) => {
      const raw: unknown = (entry as { url?: unknown } | null)?.url;
      if (typeof raw !== 'string') return;
      const url = endpointUrlText(raw);
      const earlier = first.get(url);
      if (earlier === undefined) first.set(url, i);
      else ctx.addIssue({ code: 'custom', path: [i, 'url'], message: `the URL ${JSON.stringify(url)} is used twice (first at ${formatPath(['webhooks', earlier, 'url'])})` });
    });
  },
  // Said beside the entries' other problems (issue 27).
  { when: (payload) => Array.isArray(payload.value) },
);

export type WebhookEntry = z.output<typeof webhookEntrySchema>;
