/** Where commands write: results to `out`, one per line; everything for people to `err`. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`[svc] ${line}\n`),
};
