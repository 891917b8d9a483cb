/**
 * Why a message was not sent, in the terms a sender decides on: `permanent` (the server refused
 * it for good, or it can never be sent as it is: give up) or not (a 4xx, a timeout, a dropped
 * connection: try again later).
 */

/** Nodemailer's codes for failures with no SMTP reply that retrying the same message cannot cure. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'ECONFIG', 'ENOAUTH', 'EAUTH', 'EMAXRECIPIENTS']);

export class MailSendError extends Error {
  override readonly name = 'MailSendError';
  readonly permanent: boolean;
  /** The server's SMTP reply code (535, 451, …), when it answered. */
  readonly responseCode: number | undefined;
  /** Nodemailer's or the system's error code (EAUTH, ETIMEDOUT, ECONNREFUSED, …). */
  readonly code: string | undefined;

  constructor(message: string, { permanent, responseCode, code, cause }: { permanent: boolean; responseCode?: number; code?: string; cause?: unknown }) {
    super(message, { cause });
    this.permanent = permanent;
    this.responseCode = responseCode;
    this.code = code;
  }
}

interface TransportFailure {
  message?: string;
  code?: string;
  responseCode?: number;
  originalCode?: string;
}

/**
 * The error nodemailer (or the file system) gave, as a MailSendError. An SMTP reply decides by
 * its class (RFC 5321: 5yz permanent, 4yz transient; 503 is a bad sequence, not a refusal).
 */
export function toMailSendError(error: unknown): MailSendError {
  if (error instanceof MailSendError) return error;
  const failure = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as TransportFailure;
  const responseCode = typeof failure.responseCode === 'number' ? failure.responseCode : undefined;
  const code = failure.originalCode ?? failure.code;
  const permanent =
    responseCode !== undefined ? responseCode >= 500 && responseCode < 600 && responseCode !== 503 : PERMANENT_CODES.has(failure.code ?? '');
  return new MailSendError(failure.message ?? 'mail not sent', {
    permanent,
    ...(responseCode !== undefined && { responseCode }),
    ...(code !== undefined && { code }),
    cause: error,
  });
}
