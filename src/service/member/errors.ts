/** The member API's failures: the Admin API's error body, with the codes of docs/member-api.md. */
import type { MemberApiErrorCode } from '../../contract/member';
import { HttpError, type ErrorItem } from '../http/http-error';

export class MemberError extends HttpError<MemberApiErrorCode> {
  static of(status: number, code: MemberApiErrorCode, message: string, path = 'base', headers?: Record<string, string>) {
    return new MemberError(status, [{ path, code, message }], headers);
  }

  /** One 400 naming every bad field. */
  static fields(errors: ErrorItem<MemberApiErrorCode>[]) {
    return new MemberError(400, errors);
  }
}

export const unauthenticated = (why: string) => MemberError.of(401, 'unauthenticated', why);
