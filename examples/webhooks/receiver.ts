#!/usr/bin/env -S npx tsx
/**
 * A site owner's webhook receiver, small enough to copy: it verifies each delivery with the
 * `standardwebhooks` package (docs/webhooks.md), drops a repeat by its `webhook-id` (deliveries
 * come at least once), answers at once, and prints one line an event on stdout.
 *
 *   npx svc webhooks add --site demo --url http://127.0.0.1:9000/hooks --allow-private
 *   SVC_WEBHOOK_SECRET=whsec_… npx tsx examples/webhooks/receiver.ts
 *
 * PORT is where it listens on 127.0.0.1 (default 9000). Exits 2 without SVC_WEBHOOK_SECRET.
 */
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { WebhookBody } from '../../src/contract/webhooks';

const SECRET = process.env.SVC_WEBHOOK_SECRET;
const PORT = Number(process.env.PORT || 9000);

if (!SECRET) {
  console.error('receiver: set SVC_WEBHOOK_SECRET to the secret `svc webhooks add` printed (whsec_…)');
  process.exit(2);
}

const hook = new Webhook(SECRET);
/** Ids seen: a real receiver keeps them in its database, for as long as retries may come (3 days). */
const seen = new Set<string>();

/** What an event is about, in a few words: `data` holds one resource, which its key names. */
function summary({ data }: WebhookBody): string {
  if ('member' in data) return `member ${data.member.id} <${data.member.email}>`;
  if ('membership' in data) return `membership ${data.membership.id} of member ${data.membership.memberId} on ${data.membership.planPublicId}, ${data.membership.status}`;
  if ('invoice' in data) return `invoice ${data.invoice.id} of member ${data.invoice.memberId}: ${data.invoice.totalCents} ${data.invoice.currency} ${data.invoice.status}`;
  return `member ${data.memberEvent.memberId}: ${data.memberEvent.eventType}`;
}

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    // Verify the bytes as they came: re-serialized JSON would not match the signature.
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: WebhookBody;
    try {
      body = hook.verify(raw, request.headers as Record<string, string>) as WebhookBody;
    } catch (error) {
      console.error(`receiver: refused a delivery: ${(error as Error).message}`);
      response.writeHead(400).end();
      return;
    }
    const id = request.headers['webhook-id'] as string;
    // Answer first, work after: the sender waits 10 s at most.
    response.writeHead(204).end();
    if (seen.has(id)) return;
    seen.add(id);
    console.log(`${body.timestamp} ${body.type} ${id} ${summary(body)}`);
  });
}).listen(PORT, '127.0.0.1', () => console.error(`receiver: listening on http://127.0.0.1:${PORT}/`));
