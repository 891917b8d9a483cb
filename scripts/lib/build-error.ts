/** A build failure with a message for people; printed without a stack trace. */
export class BuildError extends Error {
  override readonly name = 'BuildError';
}
