/**
 * Holds a webhook body to what docs/webhooks.md promises: `{ type, timestamp, data }` with `data`
 * made of the Admin API's wire types, as its OpenAPI document describes them (Member, Membership,
 * MemberEvent: the same closed schemas real Admin API answers are held against), and `Invoice`
 * as src/contract/webhooks.ts types it. No null anywhere.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../src/contract/webhooks';
import { openApiDocument } from '../../src/service/admin/openapi';

const ADMIN = 'urn:svc-admin:schemas';

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key === '$ref' && typeof value === 'string') return [key, value.replace('#/components/schemas/', `${ADMIN}#/$defs/`)];
      if (key === 'discriminator') return [key, { propertyName: (value as { propertyName: string }).propertyName }];
      return [key, rewriteRefs(value)];
    }),
  );
}

const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true, discriminator: true });
addFormats(ajv);
ajv.addSchema({ $id: ADMIN, $defs: rewriteRefs(openApiDocument.components.schemas) as object });

const ref = (name: string) => ({ $ref: `${ADMIN}#/$defs/${name}` });
const cents = { type: 'integer', minimum: 0 };
const INVOICE = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'memberId', 'planId', 'status', 'subTotalCents', 'taxCents', 'totalCents', 'currency', 'description', 'processorInvoiceId', 'processorChargeId', 'createdAt'],
  properties: {
    id: { type: 'integer' }, memberId: { type: 'integer' }, planId: { type: 'integer' }, membershipId: { type: 'integer' },
    status: { enum: ['paid', 'failed', 'refunded'] },
    subTotalCents: cents, taxCents: cents, totalCents: cents,
    currency: { type: 'string', pattern: '^[a-z]{3}$' }, description: { type: 'string' },
    processorInvoiceId: { type: 'string', minLength: 1 }, processorChargeId: { type: 'string', minLength: 1 },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

const DATA: Record<WebhookEventType, [key: string, schema: object]> = {
  'member.created': ['member', ref('Member')],
  'member.updated': ['member', ref('Member')],
  'membership.created': ['membership', ref('Membership')],
  'membership.cancelled': ['membership', ref('Membership')],
  'membership.renewed': ['membership', ref('Membership')],
  'membership.ended': ['membership', ref('Membership')],
  'payment.succeeded': ['invoice', INVOICE],
  'payment.failed': ['invoice', INVOICE],
  'payment.refunded': ['invoice', INVOICE],
  conversion: ['memberEvent', ref('MemberEvent')],
  'conversion.abandoned': ['memberEvent', ref('MemberEvent')],
};

const validate = ajv.compile({
  oneOf: WEBHOOK_EVENT_TYPES.map((type) => {
    const [key, schema] = DATA[type];
    return {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'timestamp', 'data'],
      properties: {
        type: { const: type },
        timestamp: { type: 'string', format: 'date-time' },
        data: { type: 'object', additionalProperties: false, required: [key], properties: { [key]: schema } },
      },
    };
  }),
});

/** Throws, saying why, unless `body` (the text a receiver got) is a webhook body as documented. */
export function checkWebhookBody(body: string): void {
  if (body.includes('null')) throw new Error(`a webhook body has a null: ${body}`);
  const value: unknown = JSON.parse(body);
  if (!validate(value)) throw new Error(`not a webhook body as documented: ${ajv.errorsText(validate.errors)}\n${body}`);
}
