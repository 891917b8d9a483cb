/**
 * Small builders for the JSON Schemas (2020-12) the OpenAPI documents embed: the Admin API's
 * (../admin/openapi.ts) and the member API's (../member/openapi.ts) build with the same ones.
 */
/** A JSON Schema (2020-12) object, as OpenAPI 3.1 embeds it. */
export type Schema = { [keyword: string]: unknown };

export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** A closed object: `required` lists the fields that are always present, every other one is optional. */
export function object(properties: Record<string, Schema>, required: readonly string[], description?: string): Schema {
  return {
    type: 'object',
    ...(description !== undefined && { description }),
    properties,
    required: [...required],
    additionalProperties: false,
  };
}

export const described = (schema: Schema, description: string): Schema => ({ ...schema, description });
export const str = (description?: string): Schema => (description === undefined ? { type: 'string' } : { type: 'string', description });
export const id = (description = 'Unique id, a positive integer.'): Schema => ({ type: 'integer', minimum: 1, description });
export const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description });
export const money = (description: string): Schema => ({ type: 'number', minimum: 0, description });
export const oneOfValues = (values: readonly string[], description?: string): Schema => ({
  type: 'string',
  enum: [...values],
  ...(description !== undefined && { description }),
});
export const dateTime = (description?: string): Schema => ({
  type: 'string',
  format: 'date-time',
  ...(description !== undefined && { description }),
});
export const currency: Schema = { type: 'string', pattern: '^[a-z]{3}$', description: 'ISO 4217 code, lowercase, e.g. `usd`.' };

/** A oneOf whose branches are told apart by one string property, as OpenAPI's discriminator states it. */
export function taggedUnion(propertyName: string, mapping: Record<string, string>, description: string): Schema {
  return {
    description,
    oneOf: Object.values(mapping).map(schemaRef),
    discriminator: {
      propertyName,
      mapping: Object.fromEntries(Object.entries(mapping).map(([tag, name]) => [tag, `#/components/schemas/${name}`])),
    },
  };
}

/**
 * The error body (the component `ErrorBody` each document defines) with `code` narrowed to the
 * codes one response can carry: a client reading the document learns which codes to branch on.
 */
export function errorBodyWith<Code extends string>(codes: readonly Code[]): Schema {
  return {
    allOf: [
      schemaRef('ErrorBody'),
      { properties: { errors: { items: { properties: { code: { enum: [...codes] } } } } } },
    ],
  };
}
