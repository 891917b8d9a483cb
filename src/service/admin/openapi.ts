/** Placeholder until the OpenAPI description lands. */
export const openApiDocument = { openapi: '3.1.0', info: { title: 'svc Admin API', version: '1.0.0' }, paths: {} };
