/**
 * The webhooks a site's endpoints receive (issue 31, docs/webhooks.md), as OpenAPI 3.1's
 * top-level `webhooks`: one POST a type, its body `{ type, timestamp, data }` made of this
 * document's own resources, so a generator types a receiver from the same document as a client.
 * test/webhooks/body-schema.ts holds real deliveries and the docs' samples against these schemas.
 */
import { WEBHOOK_EVENT_TYPES, type WebhookData, type WebhookEventType } from '../../../contract/webhooks';
import { count, currency, dateTime, id, object, oneOfValues, schemaRef, str, type Schema } from '../../openapi/schema-helpers';
import type { OpenApiObject } from '../../openapi/document';

const Invoice = object(
  {
    id: id(),
    memberId: id('The member charged.'),
    planId: id('The plan charged for.'),
    membershipId: id('The membership the charge paid for; absent when a declined first charge created none.'),
    status: oneOfValues(['paid', 'failed', 'refunded'], '`refunded`: paid, then refunded in full through the site\'s processor (one refunded in part stays `paid`, with `refundedCents`).'),
    subTotalCents: count('Before tax, in minor units of `currency`.'),
    taxCents: count('The tax, in minor units.'),
    totalCents: count('What was charged (or asked), in minor units.'),
    refundedCents: count('How much of `totalCents` was refunded so far; absent when nothing. All of it: `status` is `refunded`.'),
    currency,
    description: str('What the charge was for, as the member\'s receipt says: the plan\'s name.'),
    processorInvoiceId: { type: 'string', minLength: 1, description: 'The processor\'s invoice id (`in_…`; the test processor\'s look alike).' },
    processorChargeId: { type: 'string', minLength: 1, description: 'The processor\'s charge id (`ch_…`).' },
    createdAt: dateTime('When the charge was taken or refused.'),
  },
  ['id', 'memberId', 'planId', 'status', 'subTotalCents', 'taxCents', 'totalCents', 'currency', 'description', 'processorInvoiceId', 'processorChargeId', 'createdAt'],
  'One charge in the site\'s ledger.',
);

/** The resource each type carries in `data`, by its key there. */
const DATA: { [T in WebhookEventType]: [key: keyof WebhookData[T] & string, schema: string, when: string] } = {
  'member.created': ['member', 'Member', 'A member signed up (members loaded by `svc seed` are not announced).'],
  'member.updated': ['member', 'Member', 'A member\'s name, sign-up fields, metadata or e-mail address changed, or their address was confirmed.'],
  'membership.created': ['membership', 'Membership', 'A member joined a plan, free or paid.'],
  'membership.cancelled': ['membership', 'Membership', 'A subscription was cancelled; it stays active until `cancelsOn`.'],
  'membership.renewed': ['membership', 'Membership', 'A subscription or instalment plan was paid for its next period.'],
  'membership.ended': ['membership', 'Membership', 'A membership stopped being active: it expired, a cancellation took effect, or payments failed for good.'],
  'payment.succeeded': ['invoice', 'Invoice', 'A payment was taken: a sign-up, a renewal, an upgrade.'],
  'payment.failed': ['invoice', 'Invoice', 'The member\'s bank refused a payment.'],
  'payment.refunded': ['invoice', 'Invoice', 'A payment was refunded through the site\'s processor, in full or in part (`refundedCents` says how much so far).'],
  conversion: ['memberEvent', 'MemberEvent', 'A member joined a plan: the member event `conversion`.'],
  'conversion.abandoned': ['memberEvent', 'MemberEvent', 'A paid sign-up\'s first charge was declined: the member event `abandonedConversion`.'],
};

/** The body of one type's deliveries. */
export function webhookBodySchema(type: WebhookEventType): Schema {
  const [key, schema] = DATA[type];
  return object(
    {
      type: { type: 'string', const: type },
      timestamp: dateTime('When the change happened.'),
      data: object({ [key]: schemaRef(schema) }, [key]),
    },
    ['type', 'timestamp', 'data'],
  );
}

const header = (name: string, description: string, schema: Schema): OpenApiObject => ({ name, in: 'header', required: true, description, schema });

export const webhookParameters: Record<string, OpenApiObject> = {
  WebhookId: header('webhook-id', 'The message\'s id (`msg_…`), the same on every retry and replay: drop a delivery whose id you have seen.', { type: 'string', pattern: '^msg_[A-Za-z0-9]+$' }),
  WebhookTimestamp: header('webhook-timestamp', 'Unix seconds of this attempt: refuse one more than five minutes from your clock.', { type: 'string', pattern: '^[0-9]+$' }),
  WebhookSignature: header(
    'webhook-signature',
    '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the secret\'s bytes (the base64 after `whsec_`); two, space-separated, while a secret is being rotated.',
    { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  ),
};

export const webhookSchemas: Record<string, Schema> = { Invoice };

export const webhooks: Record<string, Record<string, OpenApiObject>> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    {
      post: {
        operationId: `webhook_${type.replace('.', '_')}`,
        summary: type,
        description: `${DATA[type][2]} Sent by Standard Webhooks to the endpoints that want it (\`svc webhooks add\`); see docs/webhooks.md.`,
        tags: ['Webhooks'],
        security: [],
        parameters: Object.keys(webhookParameters).map((name) => ({ $ref: `#/components/parameters/${name}` })),
        requestBody: { required: true, content: { 'application/json': { schema: webhookBodySchema(type) } } },
        responses: {
          '2XX': { description: 'Received: any 2xx within 10 seconds. Anything else, a redirect or no answer is a failed attempt, tried again later.' },
        },
      },
    },
  ]),
);
