/**
 * The server's graceful close (src/service/server.ts) waits for the handlers under way, not only
 * for the connections: a client that goes away mid-request ends its connection, while its
 * handler may still be using the store that `svc serve` closes next. (Seen in the request-cost
 * bench: "Cannot use a pool after calling end on the pool" logged at every stop.)
 */
import { connect } from 'node:net';
import { expect, test } from 'vitest';
import { listen } from '../../src/service/server';

test('close() waits for a handler whose client disconnected, then resolves once it returns', async () => {
  let started!: () => void;
  let finish!: () => void;
  const handlerStarted = new Promise<void>((resolve) => (started = resolve));
  const handlerMayFinish = new Promise<void>((resolve) => (finish = resolve));
  let handlerReturned = false;
  const server = await listen(async () => {
    started();
    await handlerMayFinish;
    handlerReturned = true;
    return new Response('late');
  }, 0, '127.0.0.1');
  const port = Number(new URL(server.url).port);

  const socket = connect(port, '127.0.0.1');
  socket.write(`GET /slow HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  await handlerStarted;
  const clientGone = new Promise((resolve) => socket.once('close', resolve));
  socket.destroy();
  await clientGone;

  let closed = false;
  const closing = server.close().then(() => (closed = true));
  // Ample time for the server to see the connection gone and, before the fix, to call it closed.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(closed).toBe(false);
  finish();
  await closing;
  expect(handlerReturned).toBe(true);
});

test('close() of an idle server resolves at once', async () => {
  const server = await listen(() => new Response('ok'), 0, '127.0.0.1');
  const answer = await fetch(`${server.url}/`);
  expect(await answer.text()).toBe('ok');
  await server.close();
});
