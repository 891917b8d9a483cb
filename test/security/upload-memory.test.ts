/**
 * Audit item 1 of issue 12, against the real server: a 256 MiB chunked upload to the
 * unauthenticated sign-in route is answered 413 while the server's resident memory grows by
 * less than 20 MB. Before, the body was buffered whole before its size was checked (+570 MiB).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { run, startServe, type ServeProcess } from '../support/svc-process';

const MiB = 1024 * 1024;
const SUBDOMAIN = 'shop';
const dir = mkdtempSync(join(tmpdir(), 'svc-upload-'));
// `svc serve` as a child: its memory is what is measured, apart from the test's own.
let service: ServeProcess;

beforeAll(async () => {
  const env = { SVC_DB: join(dir, 'svc.db'), PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test' };
  await run(['sites', 'create', '--subdomain', SUBDOMAIN, '--name', 'Shop', '--domain', 'shop.example'], env);
  service = await startServe([], env);
});
afterAll(async () => {
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Resident memory of a process, from /proc (Linux). */
function rssBytes(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line[1]) * 1024;
}

/**
 * Streams `total` bytes as a chunked POST on a raw socket, and resolves with the status line's
 * code once the upload has ended, or the server cut it off. A raw socket, because a server that
 * answers early and closes makes node:http's client report EPIPE instead of the answer it read.
 */
function chunkedUpload(url: string, total: number): Promise<{ status: number; sent: number }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunk = Buffer.concat([Buffer.from(`${MiB.toString(16)}\r\n`), Buffer.alloc(MiB, 0x20), Buffer.from('\r\n')]);
    let sent = 0;
    let received = '';
    const status = () => Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1] ?? 0);
    const finish = () => {
      socket.destroy();
      if (status()) resolve({ status: status(), sent });
      else reject(new Error(`no answer after ${sent} bytes`));
    };
    socket.on('data', (data) => {
      received += data.toString('latin1');
      // The whole answer is in (its JSON body ends the message): nothing more to wait for.
      if (/\r\n\r\n[\s\S]*\}\]\}$/.test(received)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.write(`POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const pump = () => {
      while (sent < total && !socket.destroyed) {
        sent += MiB;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      if (!socket.destroyed) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

test('a 256 MiB chunked upload to POST /sessions is answered 413 and the server grows by less than 20 MB', async () => {
  const url = `${service.url}/member/v1/sites/${SUBDOMAIN}/sessions`;
  // Warm the route up, so what is measured is the upload and not the first request's set-up.
  for (let i = 0; i < 3; i++) await chunkedUpload(url, 2 * MiB);
  const before = rssBytes(service.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(service.pid))), 10);
  try {
    const { status, sent } = await chunkedUpload(url, 256 * MiB);
    expect(status).toBe(413);
    expect(sent).toBeGreaterThan(0);
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, rssBytes(service.pid));
  const grown = (peak - before) / MiB;
  console.log(`svc serve RSS ${(before / MiB).toFixed(1)} MiB before, ${(peak / MiB).toFixed(1)} MiB at the peak (+${grown.toFixed(1)} MiB)`);
  expect(grown).toBeLessThan(20);
  // And it still answers.
  const health = await fetch(`${service.url}/healthz`);
  expect(health.status).toBe(200);
}, 120_000);
