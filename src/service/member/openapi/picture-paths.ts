/**
 * The members' pictures as the service serves them (../picture-files.ts, decision 0039): outside
 * any site, for any origin and without a session, so neither the site scope's answers (403, 404
 * for a site) nor a session's apply.
 */
import { componentRef, type OpenApiObject } from '../../openapi/document';
import { PICTURE_SIZE } from '../pictures/limits';
import { responseHeaders } from './http';
import { bytesOf } from './operation';

const servePicture: OpenApiObject = {
  operationId: 'getPicture',
  summary: 'A member\'s picture',
  description:
    `A picture a member uploaded (\`PUT /sites/{subdomain}/me/picture\`), as WebP within ${PICTURE_SIZE} × ${PICTURE_SIZE} pixels: ` +
    'the address a `profileImageUrl` names. Public, for any page: the address is the SHA-256 of the bytes, which nobody can guess ' +
    'without them, and its answer never changes (cached a year, `immutable`). Served as an image only, never as a page: ' +
    '`nosniff`, `Content-Security-Policy: default-src \'none\'; frame-ancestors \'none\'; sandbox`, `Content-Disposition: inline`. ' +
    'A picture no member has any more is deleted: 404 then.',
  tags: ['Account'],
  parameters: [componentRef('parameters', 'PictureFile')],
  responses: {
    200: {
      description: 'The picture\'s bytes.',
      headers: responseHeaders({
        'Cache-Control': 'ImmutableCacheControl',
        'Content-Security-Policy': 'PictureContentSecurityPolicy',
        'Content-Disposition': 'ContentDisposition',
        'Access-Control-Allow-Origin': 'AnyOrigin',
      }),
      content: bytesOf(['image/webp']),
    },
    404: componentRef('responses', 'NotFound'),
    500: componentRef('responses', 'InternalError'),
  },
};

export const picturePaths: Record<string, Record<string, OpenApiObject>> = {
  '/pictures/{file}': { get: servePicture },
};
