/**
 * A site owner's webhook receiver, for real: a node:http server on 127.0.0.1 that checks each
 * delivery with the `standardwebhooks` package's Webhook class, as the specification's own
 * documentation tells a receiver to, and answers 204 when it verifies and 400 when it does not.
 * A test may replace the answer (`answer`) to play a failing, slow or talkative receiver.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Webhook#verify passed with the receiver's secret at the time (undefined: it had none). */
  verified: boolean | undefined;
  /** What Webhook#verify threw, when it did. */
  refusal?: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** TCP connections accepted, whether or not an HTTP request came over them. */
  connections: number;
  /** The one secret this owner's receiver knows; set it before a delivery. */
  secret: string | undefined;
  /** Replaces the verified answer; return without ending `response` to never answer. */
  answer: ((response: ServerResponse, received: Received) => void) | undefined;
  close(): Promise<void>;
}

/** A receiver on `port` (a free one when not given: a test that needs the endpoint down first names the port). */
export async function startReceiver(port = 0): Promise<Receiver> {
  const server: Server = createServer((request, response) => {
    readBody(request).then((body) => {
      const received = record(request, body, receiver.secret);
      receiver.received.push(received);
      if (receiver.answer) return receiver.answer(response, received);
      response.writeHead(received.verified === false ? 400 : 204).end(received.refusal);
    });
  });
  server.on('connection', () => {
    receiver.connections++;
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: listening } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${listening}`,
    port: listening,
    received: [],
    connections: 0,
    secret: undefined,
    answer: undefined,
    close: () => {
      // A receiver that never answered still holds its connection open.
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

function record(request: IncomingMessage, body: string, secret: string | undefined): Received {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
  const received: Received = { method: request.method ?? '', path: request.url ?? '', headers, body, verified: undefined };
  if (secret === undefined) return received;
  try {
    // What a site owner writes: the raw body as received, the headers as received.
    new Webhook(secret).verify(body, headers);
    received.verified = true;
  } catch (error) {
    received.verified = false;
    received.refusal = (error as Error).message;
  }
  return received;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A port on 127.0.0.1 that nothing listens on (just closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
