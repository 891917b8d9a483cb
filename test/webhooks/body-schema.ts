/**
 * Holds a webhook body to what the service promises: the body schema of its type in the Admin
 * API's OpenAPI document (`webhooks`, src/service/admin/openapi/webhooks.ts): `{ type, timestamp,
 * data }` with `data` made of that document's closed resource schemas (Member, Membership,
 * MemberEvent, Invoice). No null anywhere.
 */
import { WEBHOOK_EVENT_TYPES } from '../../src/contract/webhooks';
import { openApiDocument } from '../../src/service/admin/openapi';
import { schemaCompiler } from '../support/openapi-validator';

/** The document's body schema of each type, one of which a delivery must match. */
const bodySchemas = WEBHOOK_EVENT_TYPES.map((type) => {
  const post = openApiDocument.webhooks?.[type]?.post as { requestBody: { content: { 'application/json': { schema: object } } } } | undefined;
  if (!post) throw new Error(`the Admin API's OpenAPI document describes no webhook ${type}`);
  return post.requestBody.content['application/json'].schema;
});
const validate = schemaCompiler(openApiDocument, 'urn:svc-admin:webhook-bodies').compile({ oneOf: bodySchemas });

/** Throws, saying why, unless `body` (the text a receiver got) is a webhook body as documented. */
export function checkWebhookBody(body: string): void {
  if (body.includes('null')) throw new Error(`a webhook body has a null: ${body}`);
  const value: unknown = JSON.parse(body);
  if (!validate(value)) throw new Error(`not a webhook body as documented: ${JSON.stringify(validate.errors)}\n${body}`);
}
