/**
 * The shape both OpenAPI 3.1 documents share (the Admin API's, ../admin/openapi.ts, and the
 * member API's, ../member/openapi.ts), and the two builders every operation uses. Loosely typed:
 * enough structure to walk and to validate against, no claim to model all of OpenAPI.
 */
import type { Schema } from './schema-helpers';

export type OpenApiObject = { [field: string]: unknown };

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiObject>>;
  /** OpenAPI 3.1's webhooks: requests the service makes, by name (the Admin API's). */
  webhooks?: Record<string, Record<string, OpenApiObject>>;
  components: {
    securitySchemes: Record<string, OpenApiObject>;
    schemas: Record<string, Schema>;
    parameters: Record<string, OpenApiObject>;
    headers: Record<string, OpenApiObject>;
    responses: Record<string, OpenApiObject>;
  };
}

export const componentRef = (kind: 'parameters' | 'headers' | 'responses', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

export const json = (schema: Schema) => ({ 'application/json': { schema } });
