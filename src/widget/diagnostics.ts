/** Every message the widget writes for the site owner goes through here, with one prefix. */
const PREFIX = '[Service]';

export const log = {
  /** The install is wrong: the widget does not run. */
  error: (message: string): void => console.error(`${PREFIX} ${message}`),
  /**
   * Something degraded (storage, network) or a page's markup is wrong; the widget goes on.
   * `context` (the element at fault, say) goes to the console as is, so it can be inspected.
   */
  warn: (message: string, ...context: unknown[]): void => console.warn(`${PREFIX} ${message}`, ...context),
};
