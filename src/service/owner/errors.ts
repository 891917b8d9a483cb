/**
 * Why an owner action was refused. The Admin API answers it in the spec's error body
 * (admin/owner-routes.ts), the CLI prints it; either way nothing changed.
 */
export type OwnerErrorKind =
  /** No such member, membership, invoice or plan in the site. */
  | 'notFound'
  /** The input is not what the action takes; `field` names it. */
  | 'invalid'
  /** The resource's state does not allow it (a cancelled membership, a refund over what is left). */
  | 'conflict'
  /** The payment processor refused or failed; nothing was recorded. */
  | 'processor';

export class OwnerActionError extends Error {
  override readonly name = 'OwnerActionError';
  constructor(
    readonly kind: OwnerErrorKind,
    message: string,
    readonly field = 'base',
  ) {
    super(message);
  }
}
