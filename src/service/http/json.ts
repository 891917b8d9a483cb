/**
 * Every JSON body the service sends goes through here, so the media type is never forgotten, and
 * the security headers are in from the start (./security-headers: nothing to add on the way out).
 */
import { securedResponse } from './security-headers';

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return securedResponse(JSON.stringify(body), status, { 'content-type': 'application/json', ...headers });
}
