/**
 * Every operation of the member API: the routes of ../app.ts, by room (docs/member-api.md tells
 * them in the same order), the members' pictures, and this description itself.
 */
import type { OpenApiObject } from '../../openapi/document';
import { json } from '../../openapi/document';
import { accountPaths } from './account-paths';
import { billingPaths } from './billing-paths';
import { picturePaths } from './picture-paths';
import { sessionPaths } from './session-paths';
import { sitePaths } from './site-paths';

const description: OpenApiObject = {
  operationId: 'getOpenApiDocument',
  summary: 'This description',
  description: 'The OpenAPI 3.1 document of the member API. Public: no session, and any origin may read it.',
  tags: ['Meta'],
  responses: { 200: { description: 'This document.', content: json({ type: 'object' }) } },
};

export const paths: Record<string, Record<string, OpenApiObject>> = {
  ...sitePaths,
  ...sessionPaths,
  ...accountPaths,
  ...billingPaths,
  ...picturePaths,
  '/openapi.json': { get: description },
};
