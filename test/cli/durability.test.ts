/**
 * Issue 16: `kill -9` during a stream of sign-ups and metadata updates, then a restart, and not
 * one write the service acknowledged (answered 2xx) is lost, on SQLite and on PostgreSQL.
 *
 * `svc serve` runs as a child process. Eight writers at a time sign members up and merge keys
 * into the metadata of members signed up before (each update a key of its own, so each can be
 * looked for). After a few hundred acknowledged writes, at a count drawn at random, the server is
 * killed with SIGKILL; the requests in flight fail and count as not acknowledged (they may or may
 * not have been written). Then `svc serve` starts again on the same database and the store,
 * opened here, must hold every acknowledged member and key. Three rounds a store, the stream
 * going on against the restarted server with the sessions handed out before the kills.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { SessionResponse } from '../../src/contract/member';
import { openStore } from '../../src/service/store/open';
import { describePostgres, newPostgresSchema } from '../support/postgres';
import { run, startServe, type ServeProcess } from '../support/svc-process';

const SUBDOMAIN = 'ledger';
const DOMAIN = 'ledger.example';
const BASE = `/member/v1/sites/${SUBDOMAIN}`;
const ROUNDS = 3;
const WRITERS = 8;
/** Acknowledged writes per round before the kill: at least this many, up to twice as many. */
const WRITES_BEFORE_KILL = 250;
/** Sign-ups only until this many members can take metadata updates. */
const FIRST_MEMBERS = 16;

interface SignUp { email: string; memberId: number }
interface MetadataWrite { memberId: number; key: string; value: string }
interface Member { memberId: number; token: string }

/** The writes made, and those the service acknowledged: only these must survive. */
class WriteStream {
  readonly signUps: SignUp[] = [];
  readonly metadata: MetadataWrite[] = [];
  /** Answers other than 2xx while the server ran: none is expected. */
  readonly refused: string[] = [];
  private readonly members: Member[] = [];
  private sequence = 0;
  private onAcknowledged = () => {};

  get acknowledged(): number {
    return this.signUps.length + this.metadata.length;
  }

  /**
   * Writers until the server stops answering: each ends at its first request that fails to get
   * an answer (or, so that a broken server cannot keep them busy, at any answer but a 2xx).
   * Resolves with how many requests failed that way (they are not acknowledged).
   * `killAt` is called once `acknowledged` reaches `killAfter`.
   */
  async run(url: string, killAfter: number, killAt: () => void): Promise<number> {
    this.onAcknowledged = () => {
      if (this.acknowledged < killAfter) return;
      this.onAcknowledged = () => {};
      killAt();
    };
    const writers = Array.from({ length: WRITERS }, async (): Promise<number> => {
      while (this.refused.length === 0) {
        try {
          await this.write(url);
        } catch {
          return 1;
        }
      }
      return 0;
    });
    return (await Promise.all(writers)).reduce((a, b) => a + b, 0);
  }

  /** One write; throws when no answer comes (the server is gone). */
  private async write(url: string): Promise<void> {
    const n = ++this.sequence;
    if (this.members.length < FIRST_MEMBERS || Math.random() < 0.4) {
      const email = `m${n}@${DOMAIN}`;
      const response = await send(url, 'POST', '/members', { email, password: `password ${n}` });
      if (!response.ok) return void this.refused.push(`sign-up ${email}: ${response.status} ${await response.text()}`);
      // Acknowledged by its status: reading the body may still fail when the kill comes now.
      const body = (await response.json().catch(() => undefined)) as SessionResponse | undefined;
      if (body) {
        this.members.push({ memberId: body.memberInfo.id, token: body.token });
        this.signUps.push({ email, memberId: body.memberInfo.id });
      } else {
        this.signUps.push({ email, memberId: -1 });
      }
    } else {
      const member = this.members[Math.floor(Math.random() * this.members.length)]!;
      const write = { memberId: member.memberId, key: `w${n}`, value: `value ${n}` };
      const response = await send(url, 'PATCH', '/me/metadata', { [write.key]: write.value }, member.token);
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) return void this.refused.push(`metadata ${write.key} of member ${member.memberId}: ${response.status}`);
      this.metadata.push(write);
    }
    this.onAcknowledged();
  }
}

function send(url: string, method: string, path: string, json: unknown, token?: string): Promise<Response> {
  return fetch(`${url}${BASE}${path}`, {
    method,
    headers: {
      origin: `http://${DOMAIN}`,
      'content-type': 'application/json',
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(json),
    // A generous limit, never a timing assertion: only so that a hung request cannot hang the test.
    signal: AbortSignal.timeout(60_000),
  });
}

/** The acknowledged writes the database does not hold, read through the store. */
async function lostWrites(database: string, writes: WriteStream): Promise<string[]> {
  const store = await openStore(database, { maxConnections: 2 });
  try {
    const site = await store.getSiteBySubdomain(SUBDOMAIN);
    if (!site) return ['the site itself'];
    const lost: string[] = [];
    for (const { email, memberId } of writes.signUps) {
      const login = await store.findMemberLogin(site.id, email);
      if (!login || (memberId !== -1 && login.memberId !== memberId)) lost.push(`member ${email} (id ${memberId})`);
    }
    const byMember = new Map<number, MetadataWrite[]>();
    for (const write of writes.metadata) {
      if (!byMember.has(write.memberId)) byMember.set(write.memberId, []);
      byMember.get(write.memberId)!.push(write);
    }
    for (const [memberId, keys] of byMember) {
      const stored = (await store.getMemberMetadata(site.id, memberId)) ?? {};
      for (const { key, value } of keys) if (stored[key] !== value) lost.push(`metadata ${key} of member ${memberId}`);
    }
    return lost;
  } finally {
    await store.close();
  }
}

async function killAndRestart(database: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-durability-'));
  const env = {
    SVC_DB: database,
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_SCRYPT: 'test',
    SVC_SIGNUP_RATE_LIMIT: 'off',
    SVC_MAIL_RATE_LIMIT: 'off',
    // Mail goes to files: PostgreSQL has no directory beside it for the outbox.
    SVC_OUTBOX_DIR: join(dir, 'outbox'),
  };
  let serve: ServeProcess | undefined;
  try {
    await run(['sites', 'create', '--subdomain', SUBDOMAIN, '--name', 'Ledger', '--domain', DOMAIN, '--db', database], env);
    serve = await startServe(['--db', database], env);
    const writes = new WriteStream();
    for (let round = 1; round <= ROUNDS; round++) {
      const killAfter = writes.acknowledged + WRITES_BEFORE_KILL + Math.floor(Math.random() * WRITES_BEFORE_KILL);
      const running = serve;
      let killed: Promise<void> | undefined;
      await writes.run(running.url, killAfter, () => void (killed = running.kill()));
      expect(writes.refused, `round ${round}: answers other than 2xx\n${running.log.join('\n')}`).toEqual([]);
      // Otherwise the writers end only when the server is gone: by our kill, or a crash the log tells of.
      expect(killed, `round ${round}: the server went away before the kill\n${running.log.join('\n')}`).toBeDefined();
      await killed;
      expect(writes.acknowledged).toBeGreaterThanOrEqual(killAfter);

      serve = await startServe(['--db', database], env);
      expect(await lostWrites(database, writes), `round ${round}: acknowledged writes lost after kill -9`).toEqual([]);
    }
    expect(writes.signUps.length).toBeGreaterThan(FIRST_MEMBERS);
    expect(writes.metadata.length).toBeGreaterThan(0);
  } finally {
    await serve?.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('SQLite: kill -9 during sign-ups and metadata updates, restart, three times: no acknowledged write lost', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-durability-db-'));
  try {
    await killAndRestart(join(dir, 'svc.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);

describePostgres('PostgreSQL', () => {
  test('kill -9 during sign-ups and metadata updates, restart, three times: no acknowledged write lost', async () => {
    const schema = await newPostgresSchema();
    try {
      await killAndRestart(schema.url);
    } finally {
      await schema.drop();
    }
  }, 300_000);
});
