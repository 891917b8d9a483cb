/** The Admin API error body of spec section 7, on every failure, always `application/json`. */
import type { ApiError, ErrorBody, ErrorCode } from '../../contract/admin';
import { jsonResponse } from '../http/json';

/** Thrown anywhere below a route; the app turns it into the error response. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ApiError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => e.message).join('; '));
  }

  static of(status: number, code: ErrorCode, message: string, path = 'base', headers?: Record<string, string>) {
    return new AdminError(status, [{ path, code, message }], headers);
  }

  toResponse(): Response {
    const body: ErrorBody = { errors: this.errors };
    return jsonResponse(body, this.status, this.headers);
  }
}

export const notFound = (what = 'No such resource') => AdminError.of(404, 'notFound', what);
