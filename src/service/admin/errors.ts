/** The Admin API's failures: the error body of spec section 7 with the codes it documents. */
import type { ErrorCode } from '../../contract/admin';
import { HttpError } from '../http/http-error';

/** Thrown anywhere below a route; the app turns it into the error response. */
export class AdminError extends HttpError<ErrorCode> {
  static of(status: number, code: ErrorCode, message: string, path = 'base', headers?: Record<string, string>) {
    return new AdminError(status, [{ path, code, message }], headers);
  }
}

export const notFound = (what = 'No such resource') => AdminError.of(404, 'notFound', what);
