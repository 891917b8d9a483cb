/**
 * A failure thrown anywhere below a route; the app turns it into the error body of spec
 * section 7 (`{"errors": [{path, code, message}]}`), always `application/json`. Both HTTP
 * surfaces use it: each has its own subclass that types the codes it may send.
 */
import { jsonResponse } from './json';

export interface ErrorItem<Code extends string = string> {
  path: string;
  code: Code;
  message: string;
}

export class HttpError<Code extends string = string> extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorItem<Code>[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => e.message).join('; '));
  }

  toResponse(): Response {
    return jsonResponse({ errors: this.errors }, this.status, this.headers);
  }
}
