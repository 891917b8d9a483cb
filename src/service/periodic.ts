/**
 * Background work of `svc serve` (the billing run, the mail sender): a pass at once, then every
 * `everyMs`, never two at a time; `wake()` asks for one sooner. A pass that throws is reported and
 * the next one tries again. `stop()` waits for the pass under way; a pass may ask `stopped()`
 * to end early.
 */
export function runPeriodically(
  pass: (stopped: () => boolean) => Promise<void>,
  everyMs: number,
  onError: (error: unknown) => void,
): { wake(): void; stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const isStopped = () => stopped;
  const run = () => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        await pass(isStopped);
      } catch (error) {
        onError(error);
      }
    });
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    wake: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
