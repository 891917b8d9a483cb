/** Every message the service writes for people goes through here, with one prefix. */
export const log = {
  info: (message: string) => process.stderr.write(`[svc] ${message}\n`),
  error: (message: string, error?: unknown) =>
    process.stderr.write(`[svc] ${message}${error instanceof Error ? `: ${error.stack ?? error.message}` : ''}\n`),
};
