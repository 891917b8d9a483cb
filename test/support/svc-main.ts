/** `svc …` in this process: the CLI's `main` with its output caught, as a terminal shows it. */
import { main } from '../../src/cli/main';
import { setLogSink } from '../../src/service/diagnostics';

export interface CliRun {
  code: number;
  /** Lines as a terminal shows them: one `out` call may write several (export writes a file in one). */
  out: string[];
  err: string;
}

/** Runs `svc argv…` with `env` as its whole environment. */
export async function runSvc(argv: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  let code: number;
  try {
    code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  } finally {
    // `svc serve`'s settings hand the service's log to pino (src/cli/logger.ts), for the process:
    // a command run here gives it back, so the suites after it in this worker log as before.
    setLogSink();
  }
  return { code, out: out.flatMap((l) => l.split('\n')), err: err.join('\n') };
}
