/**
 * Every message the service writes for people goes through here, with one prefix. console, not
 * process.stderr: the same app also runs in a browser, inside the mock server.
 */
export const log = {
  info: (message: string) => console.error(`[svc] ${message}`),
  error: (message: string, error?: unknown) =>
    console.error(`[svc] ${message}${error instanceof Error ? `: ${error.stack ?? error.message}` : ''}`),
};
