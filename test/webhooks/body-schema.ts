/**
 * Holds a webhook body to what the service promises: the body schema of its type in the Admin
 * API's OpenAPI document (`webhooks`, src/service/admin/openapi/webhooks.ts): `{ type, timestamp,
 * data }` with `data` made of that document's closed resource schemas (Member, Membership,
 * MemberEvent, Invoice). No null anywhere.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { WEBHOOK_EVENT_TYPES } from '../../src/contract/webhooks';
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

/** The document's body schema of each type, one of which a delivery must match. */
const bodySchemas = WEBHOOK_EVENT_TYPES.map((type) => {
  const post = openApiDocument.webhooks?.[type]?.post as { requestBody: { content: { 'application/json': { schema: object } } } } | undefined;
  if (!post) throw new Error(`the Admin API's OpenAPI document describes no webhook ${type}`);
  return rewriteRefs(post.requestBody.content['application/json'].schema);
});
const validate = ajv.compile({ oneOf: bodySchemas });

/** Throws, saying why, unless `body` (the text a receiver got) is a webhook body as documented. */
export function checkWebhookBody(body: string): void {
  if (body.includes('null')) throw new Error(`a webhook body has a null: ${body}`);
  const value: unknown = JSON.parse(body);
  if (!validate(value)) throw new Error(`not a webhook body as documented: ${ajv.errorsText(validate.errors)}\n${body}`);
}
