/**
 * Issue 26: payments through `svc serve --workers 2`, on SQLite and on PostgreSQL. Each request
 * goes on a connection of its own, so the primary hands them to the workers in turn.
 *
 * - Finding 1: ten sign-ups of one member to one paid plan sent at once, across both workers, make
 *   one membership and one charge (the sign-up is claimed in the store before the processor is
 *   asked). Before: two memberships and two charges on SQLite, nine or ten on PostgreSQL.
 * - Finding 2: the test processor's customers and cards are in the store, so a card saved
 *   through one worker is charged through the other. Before, each worker's processor kept them in
 *   its own memory: a member whose customer one worker made and whose card the other saved got a
 *   500 (UnknownPaymentReferenceError) when paying through the first.
 *
 * Checked through the database (opened here once the server has stopped).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openStore } from '../../src/service/store/open';
import { describePostgres, newPostgresSchema } from '../support/postgres';
import { run, startServe } from '../support/svc-process';

const SUBDOMAIN = 'shop';
const DOMAIN = 'shop.example';
const GOOD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123' };
const SITE_FILE = `site:
  subdomain: ${SUBDOMAIN}
  name: Shop
  domain: ${DOMAIN}
  currency: usd
  locale: en
plans:
  - { key: reader, name: Reader, type: free }
  - { key: lifetime, name: Lifetime, type: oneTimePayment, billing: { price: 10 } }
`;

const dir = mkdtempSync(join(tmpdir(), 'svc-workers-payments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let databases = 0;

interface Answer {
  status: number;
  body: any;
}

/** One member API request on a connection of its own (no keep-alive): the primary gives each to the next worker. */
function send(url: string, method: string, path: string, json: unknown, token?: string): Promise<Answer> {
  const body = JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/member/v1/sites/${SUBDOMAIN}${path}`,
      {
        method,
        agent: false,
        headers: {
          origin: `http://${DOMAIN}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(token !== undefined && { authorization: `Bearer ${token}` }),
        },
        timeout: 60_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.once('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** A database with the shop applied, `svc serve --workers 2` on it, the plans' public ids; stopped after `work`. */
async function withTwoWorkers(database: string, work: (url: string, plans: { reader: string; lifetime: string }) => Promise<void>): Promise<void> {
  const env = {
    SVC_DB: database, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test', SVC_SIGNUP_RATE_LIMIT: 'off',
    // Mail goes to files: PostgreSQL has no directory beside it for the outbox.
    SVC_OUTBOX_DIR: join(dir, `outbox-${++databases}`),
  };
  const file = join(dir, `shop-${databases}.yaml`);
  writeFileSync(file, SITE_FILE);
  await run(['sites', 'apply', file, '--db', database], env);
  const store = await openStore(database, { maxConnections: 1 });
  const site = (await store.getSiteBySubdomain(SUBDOMAIN))!;
  const plans = (await store.listPlans(site.id, { statuses: ['enabled'] }, { limit: 10 })).items;
  await store.close();
  const publicId = (key: string) => plans.find((p) => p.key === key)!.publicId;
  const serve = await startServe(['--workers', '2'], env);
  try {
    expect(serve.log.join('\n')).toMatch(/2 workers/);
    await work(serve.url, { reader: publicId('reader'), lifetime: publicId('lifetime') });
  } finally {
    expect(await serve.stop()).toBe(0);
  }
}

async function signUp(url: string, email: string): Promise<{ token: string; memberId: number }> {
  const answer = await send(url, 'POST', '/members', { email, password: 'a long enough password' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { token: answer.body.token, memberId: answer.body.memberInfo.id };
}

/**
 * The card as the widget sends it: to the test processor's card field (POST /test-payment-methods),
 * then the payment method it answers to PUT /payment-method, each request to the next worker. Both answers.
 */
async function saveCard(url: string, token: string, card: typeof GOOD): Promise<Answer[]> {
  const made = await send(url, 'POST', '/test-payment-methods', card, token);
  return [made, await send(url, 'PUT', '/payment-method', { paymentMethodId: made.body?.id }, token)];
}

/** What the database holds of the member: memberships per plan key, ledger invoices, and the test processor's charges. */
async function holdings(database: string, memberId: number) {
  const store = await openStore(database, { maxConnections: 1 });
  try {
    const site = (await store.getSiteBySubdomain(SUBDOMAIN))!;
    const plans = new Map((await store.listPlans(site.id, { statuses: ['enabled'] }, { limit: 10 })).items.map((p) => [p.id, p.key]));
    const memberships = (await store.listMembershipsOfMember(site.id, memberId)).map((m) => plans.get(m.planId));
    const invoices = await store.listInvoicesOfMember(site.id, memberId);
    const customerId = (await store.getMember(site.id, memberId))?.processorCustomerId;
    const charges = customerId === undefined ? [] : await store.listTestProcessorCharges(customerId);
    return { memberships, invoices: invoices.length, charges: charges.length };
  } finally {
    await store.close();
  }
}

/** Finding 1: ten paid sign-ups of one member at once, each with the payment method the card field made of the card, as the widget sends it. */
async function tenSignUpsAtOnce(database: string): Promise<void> {
  let memberId = 0;
  let statuses: number[] = [];
  await withTwoWorkers(database, async (url, plans) => {
    const member = await signUp(url, 'ann@shop.example');
    memberId = member.memberId;
    const made = await send(url, 'POST', '/test-payment-methods', GOOD, member.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => send(url, 'POST', '/memberships', { planPublicId: plans.lifetime, paymentMethodId: made.body.id }, member.token)),
    );
    statuses = answers.map((a) => a.status).sort();
    for (const answer of answers.filter((a) => a.status !== 201)) expect(answer.body.errors.map((e: { code: string }) => e.code)).toEqual(['alreadyMember']);
  });
  const held = await holdings(database, memberId);
  expect(held.memberships).toEqual(['lifetime']);
  expect(held.invoices).toBe(1);
  expect(held.charges).toBe(1);
  expect(statuses).toEqual([201, ...Array(9).fill(409)]);
}

/**
 * Finding 2: members each make their customer through one worker (joining the free plan), make a
 * card through the next and save it through the one after, and pay for the paid plan through the
 * next. Every answer a 2xx.
 */
async function cardsAcrossWorkers(database: string): Promise<void> {
  const members: number[] = [];
  await withTwoWorkers(database, async (url, plans) => {
    for (let i = 0; i < 4; i++) {
      const { token, memberId } = await signUp(url, `member${i}@shop.example`);
      members.push(memberId);
      const steps = [
        await send(url, 'POST', '/memberships', { planPublicId: plans.reader }, token),
        ...(await saveCard(url, token, GOOD)),
        await send(url, 'POST', '/memberships', { planPublicId: plans.lifetime }, token),
        ...(await saveCard(url, token, { ...GOOD, cardNumber: '5555 5555 5555 4444' })),
      ];
      expect(steps.map((s) => s.status), `member ${i}: ${JSON.stringify(steps.map((s) => s.body))}`).toEqual([201, 201, 200, 201, 201, 200]);
    }
  });
  for (const memberId of members) {
    expect(await holdings(database, memberId)).toEqual({ memberships: ['reader', 'lifetime'], invoices: 1, charges: 1 });
  }
}

describe('SQLite', () => {
  test('10 sign-ups of one member to a paid plan at once through 2 workers: one membership, one charge', async () => {
    await tenSignUpsAtOnce(join(dir, 'race.db'));
  }, 120_000);

  test('a card saved through one worker is charged through the other: no 500, one charge each', async () => {
    await cardsAcrossWorkers(join(dir, 'cards.db'));
  }, 120_000);
});

describePostgres('PostgreSQL', () => {
  test('10 sign-ups of one member to a paid plan at once through 2 workers: one membership, one charge', async () => {
    const schema = await newPostgresSchema();
    try {
      await tenSignUpsAtOnce(schema.url);
    } finally {
      await schema.drop();
    }
  }, 120_000);

  test('a card saved through one worker is charged through the other: no 500, one charge each', async () => {
    const schema = await newPostgresSchema();
    try {
      await cardsAcrossWorkers(schema.url);
    } finally {
      await schema.drop();
    }
  }, 120_000);
});
