/** Every message the widget writes for the site owner goes through here, with one prefix. */
const PREFIX = '[Service]';

export const log = {
  /** The install is wrong: the widget does not run. */
  error: (message: string): void => console.error(`${PREFIX} ${message}`),
  /** Something degraded (storage, network); the widget goes on. */
  warn: (message: string): void => console.warn(`${PREFIX} ${message}`),
};
