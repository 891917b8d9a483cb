/**
 * docs/webhooks.md: a sample body for every event type, each a body as documented (the Admin
 * API's schemas), and the retry table the schedule that runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';
import { WEBHOOK_EVENT_TYPES } from '../../src/contract/webhooks';
import { RETRY_WAITS_MS } from '../../src/service/webhooks';
import { checkWebhookBody } from './body-schema';

const doc = readFileSync(join(repoRoot, 'docs/webhooks.md'), 'utf8');
const samples = [...doc.matchAll(/```json ([\w.]+)\n(.*)\n```/g)].map(([, type, body]) => ({ type: type!, body: body! }));

test('a sample body of every event type, in the order of the type list, each of its own type', () => {
  expect(samples.map((s) => s.type)).toEqual([...WEBHOOK_EVENT_TYPES]);
  for (const { type, body } of samples) expect((JSON.parse(body) as { type: string }).type).toBe(type);
});

test.each(samples)('the $type sample is a body as documented', ({ body }) => {
  expect(() => checkWebhookBody(body)).not.toThrow();
});

test('the checker refuses a body that breaks the schemas', () => {
  const good = JSON.parse(samples[0]!.body);
  const bad = [
    { ...good, extra: 1 },
    { ...good, type: 'member.deleted' },
    { ...good, data: { member: { ...good.data.member, email: undefined } } },
    { ...good, data: { membership: good.data.member } },
    { ...good, data: { member: { ...good.data.member, firstName: null } } },
  ];
  for (const body of bad) expect(() => checkWebhookBody(JSON.stringify(body))).toThrow();
});

test('every event type is in the table of events, and the retry table is the schedule that runs', () => {
  for (const type of WEBHOOK_EVENT_TYPES) expect(doc).toContain(`| \`${type}\` |`);
  const waits = doc.match(/\| wait before it \|(.*)\|\n/)![1]!.split('|').map((s) => s.trim());
  const text = (ms: number) => (ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`);
  expect(waits.slice(1, 7)).toEqual(RETRY_WAITS_MS.slice(0, 6).map(text));
  expect(RETRY_WAITS_MS.slice(5).every((ms) => ms === 10 * 3_600_000)).toBe(true);
  expect(doc).toContain(`| attempt | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | … | ${RETRY_WAITS_MS.length + 1} |`);
});
