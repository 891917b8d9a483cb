/**
 * Preloaded (`node --require`) into every `svc` child a test starts: the child stops itself
 * (SIGTERM, its usual graceful stop) once the process that started it is gone. A vitest worker
 * that is killed, or a hook that timed out before the test kept the child's handle, would
 * otherwise leave a server running after the suite, holding CPU and ports for the next run.
 * Test-only: `svc serve` itself keeps running when its parent exits, as a daemon must.
 */
'use strict';
const parent = process.ppid;
// Orphaned: the child now belongs to init (or a subreaper), never to its first parent again. A
// parent gone before this ran (Node's start takes a while on a loaded machine) leaves init, pid 1,
// as the parent from the start: no test's process is pid 1.
const orphaned = () => process.ppid !== parent || parent === 1;
if (orphaned()) setImmediate(() => process.kill(process.pid, 'SIGTERM'));
else setInterval(() => orphaned() && process.kill(process.pid, 'SIGTERM'), 500).unref();
