/** The member API's known paths answer a method they do not take with 405, saying which ones they take. */
import type { MemberApp } from './context';
import { MemberError } from './errors';

export function methodsNotAllowed(app: MemberApp): void {
  // Known paths answer other methods with 405 and say which ones they take.
  const methods: Record<string, string> = {
    '/sites/:subdomain/config': 'GET',
    '/sites/:subdomain/members': 'POST',
    '/sites/:subdomain/sessions': 'POST',
    '/sites/:subdomain/sessions/current': 'DELETE',
    '/sites/:subdomain/me': 'GET, PATCH',
    '/sites/:subdomain/me/email': 'PUT',
    '/sites/:subdomain/me/email/confirm': 'POST',
    '/sites/:subdomain/email-changes': 'POST',
    '/sites/:subdomain/password-reset': 'POST',
    '/sites/:subdomain/password-reset/complete': 'POST',
    '/sites/:subdomain/sign-in-codes': 'POST',
    '/sites/:subdomain/me/password': 'PUT',
    '/sites/:subdomain/me/metadata': 'GET, PATCH, DELETE',
    '/sites/:subdomain/plans': 'GET',
    '/sites/:subdomain/plans/:publicId': 'GET',
    '/sites/:subdomain/memberships': 'GET, POST',
    '/sites/:subdomain/memberships/confirm': 'POST',
    '/sites/:subdomain/memberships/:id/cancel': 'POST',
    '/sites/:subdomain/memberships/:id/change': 'GET, POST',
    '/sites/:subdomain/invoices': 'GET',
    '/sites/:subdomain/payment-method': 'GET, PUT',
    '/sites/:subdomain/content/:contentId': 'GET',
    '/sites/:subdomain/content/:contentId/plans': 'GET',
  };
  for (const [path, allow] of Object.entries(methods)) {
    app.all(path, (c) => {
      throw MemberError.of(405, 'methodNotAllowed', `${c.req.method} is not supported here; use ${allow}`, 'base', { allow });
    });
  }
}
