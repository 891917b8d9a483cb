import type { ServiceError, WidgetErrorCode } from './public-types';

/** How every widget promise rejects: an `Error` with the code a caller branches on. */
export function serviceError(code: WidgetErrorCode, message: string, path = 'base', errors?: ServiceError['errors']): ServiceError {
  return Object.assign(new Error(message), { name: 'ServiceError', code, path }, errors && errors.length > 1 && { errors });
}

export const networkError = (message: string): ServiceError => serviceError('networkError', message);
