/**
 * Versioned schema of the SQLite store. `MIGRATIONS[i]` takes a database from version i to
 * i + 1 (`PRAGMA user_version`); each step runs in its own transaction. Append new steps,
 * never edit shipped ones.
 *
 * Every row carries `site_id`. References to rows of the same site are composite foreign keys
 * `(site_id, x_id) REFERENCES parent(site_id, id)` over a UNIQUE (site_id, id) index, so SQLite
 * itself rejects a reference to another site's row, with no extra query per inserted row.
 * Indexes on (site_id[, x_id]) end in the rowid implicitly, i.e. they are ordered by id within
 * the prefix: keyset pages (`id > ? ORDER BY id LIMIT ?`) are range scans on them.
 */
import type Database from 'better-sqlite3';

import { SchemaVersionError } from '../errors';

export const MIGRATIONS: readonly string[] = [
  /* 1: initial schema */ `
  CREATE TABLE sites (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    subdomain TEXT NOT NULL UNIQUE,
    domain TEXT NOT NULL,
    default_currency TEXT NOT NULL,
    locale TEXT NOT NULL,
    admin_api_enabled INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE plans (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    public_id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL,
    is_public INTEGER NOT NULL,
    color_code TEXT NOT NULL,
    content_url TEXT,
    welcome_url TEXT,
    created_at INTEGER NOT NULL,
    type TEXT NOT NULL,
    -- {"expiration": …} and/or {"billing": …}, as the plan type has them
    terms TEXT NOT NULL
  );
  CREATE UNIQUE INDEX plans_site_id ON plans (site_id, id);

  CREATE TABLE members (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    email TEXT NOT NULL,
    first_name TEXT,
    last_name TEXT,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX members_site_id ON members (site_id, id);
  CREATE UNIQUE INDEX members_site_email ON members (site_id, email);

  CREATE TABLE memberships (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    plan_id INTEGER NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    cancels_at INTEGER,
    billing_period_end INTEGER,
    payment_failure INTEGER NOT NULL,
    FOREIGN KEY (site_id, member_id) REFERENCES members (site_id, id),
    FOREIGN KEY (site_id, plan_id) REFERENCES plans (site_id, id)
  );
  CREATE INDEX memberships_site ON memberships (site_id);
  CREATE INDEX memberships_site_member ON memberships (site_id, member_id);
  CREATE INDEX memberships_site_plan ON memberships (site_id, plan_id);
  -- covering, grouped by member: siteMetrics in one streaming pass
  CREATE INDEX memberships_site_status_member ON memberships (site_id, status, member_id, type);
  -- covering, grouped by plan then member: planActiveMemberCounts
  CREATE INDEX memberships_site_plan_status_member ON memberships (site_id, plan_id, status, member_id);

  CREATE TABLE member_events (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    event_type TEXT NOT NULL,
    details TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    FOREIGN KEY (site_id, member_id) REFERENCES members (site_id, id)
  );
  CREATE INDEX member_events_site ON member_events (site_id);
  CREATE INDEX member_events_site_member ON member_events (site_id, member_id);

  CREATE TABLE content_spaces (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    name TEXT NOT NULL
  );
  CREATE UNIQUE INDEX content_spaces_site_id ON content_spaces (site_id, id);

  CREATE TABLE content_nodes (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL,
    space_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    FOREIGN KEY (site_id, space_id) REFERENCES content_spaces (site_id, id)
  );
  CREATE UNIQUE INDEX content_nodes_site_id ON content_nodes (site_id, id);
  CREATE INDEX content_nodes_site_space ON content_nodes (site_id, space_id);

  CREATE TABLE content_views (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    node_id INTEGER NOT NULL,
    viewed_at INTEGER NOT NULL,
    FOREIGN KEY (site_id, member_id) REFERENCES members (site_id, id),
    FOREIGN KEY (site_id, node_id) REFERENCES content_nodes (site_id, id)
  );
  CREATE INDEX content_views_site ON content_views (site_id);
  CREATE INDEX content_views_site_member ON content_views (site_id, member_id);
  CREATE INDEX content_views_site_node ON content_views (site_id, node_id);

  CREATE TABLE api_keys (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    hash TEXT NOT NULL UNIQUE,
    scopes TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    revoked_at INTEGER
  );
  CREATE INDEX api_keys_site ON api_keys (site_id);

  CREATE TABLE secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
  `,

  /*
   * 2: member accounts: passwords and profile images, custom sign-up fields and their values,
   * sessions, member metadata. Cheap on a large database: the added columns are NULL by
   * default (no row is rewritten) and everything else is a new, empty table.
   */ `
  ALTER TABLE members ADD COLUMN password_hash TEXT;
  ALTER TABLE members ADD COLUMN profile_image_url TEXT;

  CREATE TABLE signup_fields (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    type TEXT NOT NULL,
    label TEXT NOT NULL,
    required INTEGER NOT NULL,
    -- JSON array of {"label", "value"}; NULL when the field has no options
    options TEXT,
    position INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX signup_fields_site_id ON signup_fields (site_id, id);
  CREATE INDEX signup_fields_site_position ON signup_fields (site_id, position);

  CREATE TABLE signup_values (
    site_id INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    field_id INTEGER NOT NULL,
    -- JSON: a string, an array of strings or a boolean, as the field's type has it
    value TEXT NOT NULL,
    PRIMARY KEY (member_id, field_id),
    FOREIGN KEY (site_id, member_id) REFERENCES members (site_id, id),
    FOREIGN KEY (site_id, field_id) REFERENCES signup_fields (site_id, id)
  ) WITHOUT ROWID;

  CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    -- SHA-256 of the bearer token, hex
    token_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER,
    FOREIGN KEY (site_id, member_id) REFERENCES members (site_id, id)
  );
  CREATE UNIQUE INDEX sessions_token_hash ON sessions (token_hash);
  CREATE INDEX sessions_site_member ON sessions (site_id, member_id);

  -- one row per member once first updated; no row means {}
  CREATE TABLE member_metadata (
    member_id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL,
    -- JSON object
    data TEXT NOT NULL,
    FOREIGN KEY (site_id, member_id) REFERENCES members (site_id, id)
  );
  `,

  /*
   * 3: payments: the member's customer at the processor, multi-payment progress, saved cards and
   * the invoice ledger. The added columns are NULL by default (no row is rewritten) and the new
   * tables are empty. The one cost that grows with the data: memberships_site_member becomes
   * unique over (site_id, member_id, id) so that an invoice's membership can be checked as the
   * member's by a foreign key. It is the same order as before (the rowid ended it implicitly),
   * so queries keep their plans; building it reads every membership once.
   */ `
  ALTER TABLE members ADD COLUMN processor_customer_id TEXT;
  ALTER TABLE memberships ADD COLUMN payments_made INTEGER;

  DROP INDEX memberships_site_member;
  CREATE UNIQUE INDEX memberships_site_member_id ON memberships (site_id, member_id, id);

  -- AUTOINCREMENT: replacing a member's card deletes the row, and the new card must not reuse its id
  CREATE TABLE payment_methods (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    -- the processor's payment-method id
    processor_id TEXT NOT NULL,
    brand TEXT NOT NULL,
    last4 TEXT NOT NULL,
    exp_month INTEGER NOT NULL,
    exp_year INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    FOREIGN KEY (site_id, member_id) REFERENCES members (site_id, id)
  );
  -- one saved card per member
  CREATE UNIQUE INDEX payment_methods_site_member ON payment_methods (site_id, member_id);

  CREATE TABLE invoices (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    plan_id INTEGER NOT NULL,
    -- NULL for a failed first charge, which created no membership
    membership_id INTEGER,
    processor_invoice_id TEXT NOT NULL,
    processor_charge_id TEXT NOT NULL,
    sub_total_cents INTEGER NOT NULL,
    tax_cents INTEGER NOT NULL,
    total_cents INTEGER NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    FOREIGN KEY (site_id, member_id) REFERENCES members (site_id, id),
    FOREIGN KEY (site_id, plan_id) REFERENCES plans (site_id, id),
    FOREIGN KEY (site_id, member_id, membership_id) REFERENCES memberships (site_id, member_id, id)
  );
  CREATE UNIQUE INDEX invoices_site_processor_invoice ON invoices (site_id, processor_invoice_id);
  -- ends in the rowid: listInvoicesOfMember (created_at DESC, id DESC) is a backward range scan
  CREATE INDEX invoices_site_member_created ON invoices (site_id, member_id, created_at);
  `,

  /*
   * 4: site settings the widget reads (member menu, after-registration action) and protected
   * content: where an item is or what it says, and which plans open each space. Added columns
   * take their defaults without rewriting a row; the new table is empty.
   */ `
  ALTER TABLE sites ADD COLUMN member_menu INTEGER NOT NULL DEFAULT 0;
  -- JSON, e.g. {"action":"redirect","url":"https://…"}; NULL: stay on the page
  ALTER TABLE sites ADD COLUMN after_registration TEXT;
  ALTER TABLE content_nodes ADD COLUMN url TEXT;
  ALTER TABLE content_nodes ADD COLUMN body TEXT;

  CREATE TABLE content_space_plans (
    site_id INTEGER NOT NULL,
    space_id INTEGER NOT NULL,
    plan_id INTEGER NOT NULL,
    PRIMARY KEY (site_id, space_id, plan_id),
    FOREIGN KEY (site_id, space_id) REFERENCES content_spaces (site_id, id),
    FOREIGN KEY (site_id, plan_id) REFERENCES plans (site_id, id)
  ) WITHOUT ROWID;
  `,

  /*
   * 5: expired sessions are deleted (deleteExpiredSessions, run with the billing): an index on
   * their expiry finds them without reading every session. Building it reads every session once.
   */ `
  CREATE INDEX sessions_expires_at ON sessions (expires_at);
  `,

  /*
   * 6: the site file (svc sites apply). Plans, sign-up fields and content items get the owner's
   * stable key, unique per site; rows from before get a mechanical one (a plan its public id,
   * others `field-<id>` / `item-<id>`), as do rows made later without one (the triggers). Fields,
   * spaces and items that leave the file are archived, not deleted. A membership keeps the
   * billing it joined under once its plan's billing changes. `revision` counts changes to a
   * site's definition. Updating the keys rewrites the plans, fields and items (a few hundred rows
   * on a real site); memberships are not rewritten.
   */ `
  ALTER TABLE sites ADD COLUMN checkbox_labels TEXT;
  -- JSON SiteTheme; NULL: the widget's own look
  ALTER TABLE sites ADD COLUMN theme TEXT;
  ALTER TABLE sites ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

  ALTER TABLE plans ADD COLUMN key TEXT;
  ALTER TABLE plans ADD COLUMN position INTEGER;
  UPDATE plans SET key = public_id;
  CREATE UNIQUE INDEX plans_site_key ON plans (site_id, key);
  CREATE TRIGGER plans_default_key AFTER INSERT ON plans WHEN NEW.key IS NULL
  BEGIN UPDATE plans SET key = NEW.public_id WHERE id = NEW.id; END;

  ALTER TABLE signup_fields ADD COLUMN key TEXT;
  ALTER TABLE signup_fields ADD COLUMN archived_at INTEGER;
  UPDATE signup_fields SET key = 'field-' || id;
  CREATE UNIQUE INDEX signup_fields_site_key ON signup_fields (site_id, key);
  CREATE TRIGGER signup_fields_default_key AFTER INSERT ON signup_fields WHEN NEW.key IS NULL
  BEGIN UPDATE signup_fields SET key = 'field-' || NEW.id WHERE id = NEW.id; END;

  ALTER TABLE content_spaces ADD COLUMN archived_at INTEGER;
  ALTER TABLE content_nodes ADD COLUMN key TEXT;
  ALTER TABLE content_nodes ADD COLUMN archived_at INTEGER;
  UPDATE content_nodes SET key = 'item-' || id;
  CREATE UNIQUE INDEX content_nodes_site_key ON content_nodes (site_id, key);
  CREATE TRIGGER content_nodes_default_key AFTER INSERT ON content_nodes WHEN NEW.key IS NULL
  BEGIN UPDATE content_nodes SET key = 'item-' || NEW.id WHERE id = NEW.id; END;

  -- JSON billing as the plan had it when the member joined; NULL: the plan's billing now
  ALTER TABLE memberships ADD COLUMN billing TEXT;
  `,
  // 6 → 7: the mail outbox (issue 15). Senders in any process claim due rows for a lease
  // (claimed_until) and record how each attempt ended; nothing is deleted, so a failed mail stays
  // for the operator to see.
  `
  CREATE TABLE mail_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    kind TEXT NOT NULL,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT,
    from_name TEXT,
    reply_to TEXT,
    created_at INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    sent_at INTEGER,
    last_error TEXT
  );
  CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at, id) WHERE status = 'queued';
  CREATE INDEX mail_outbox_recipient ON mail_outbox (site_id, recipient, created_at);
  CREATE INDEX mail_outbox_site ON mail_outbox (site_id, created_at);
  `,
  // 7 → 8: the mail flows (issue 15). Mailed tokens keep hashes only; a member's address is
  // confirmed when a code or link proves it. Members from before count as confirmed from now:
  // the service could not ask them, and unconfirmed they would be locked out of a site that turns
  // confirmation on, and lose their password at their first sign-in by code (decision 0024).
  // A site's mail settings are one JSON value; a notice that must go once carries its key.
  `
  CREATE TABLE member_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    member_id INTEGER NOT NULL REFERENCES members (id),
    purpose TEXT NOT NULL CHECK (purpose IN ('signIn', 'passwordReset', 'emailChange')),
    token_hash TEXT NOT NULL UNIQUE,
    code_hash TEXT,
    new_email TEXT,
    sign_up INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    used_at INTEGER
  );
  CREATE INDEX member_tokens_member ON member_tokens (member_id, purpose, id) WHERE used_at IS NULL;

  ALTER TABLE members ADD COLUMN email_confirmed_at INTEGER;
  UPDATE members SET email_confirmed_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER);
  ALTER TABLE sites ADD COLUMN mail TEXT;
  ALTER TABLE mail_outbox ADD COLUMN once_key TEXT;
  CREATE UNIQUE INDEX mail_outbox_once ON mail_outbox (site_id, once_key) WHERE once_key IS NOT NULL;
  CREATE INDEX mail_outbox_kind ON mail_outbox (site_id, kind, created_at);
  `,
  // 8 → 9: state every process must share (issue 16, decision 0025). A rate cell is a key's
  // theoretical arrival time (GCRA; REAL, since window / limit need not be whole ms) and whether
  // its last request was allowed, written by the same upsert. A throttled key keeps its failure
  // times (a JSON array, newest `maxFailures`) and its checks under way. A lease is a name, its
  // holder and when it lapses. No index on times: the billing run's sweep scans these small
  // tables every few minutes, cheaper than moving an index entry on every request.
  `
  CREATE TABLE rate_cells (
    key TEXT PRIMARY KEY,
    tat REAL NOT NULL,
    allowed INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE throttles (
    key TEXT PRIMARY KEY,
    failures TEXT NOT NULL,
    pending INTEGER NOT NULL,
    pending_until INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 9 → 10: the definition's version (decision 0027). Every write to a site, plan, sign-up field
  // or API key moves it, whichever process or tool writes, so a process may keep what it read of
  // them until the version moves (../definition-cache).
  `
  CREATE TABLE definition_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
  );
  INSERT INTO definition_version (id, version) VALUES (1, 0);
  ${['sites', 'plans', 'signup_fields', 'api_keys'].flatMap((table) => ['INSERT', 'UPDATE', 'DELETE'].map((event) =>
    `CREATE TRIGGER ${table}_${event.toLowerCase()}_definition AFTER ${event} ON ${table}
     BEGIN UPDATE definition_version SET version = version + 1; END;`)).join('\n  ')}
  `,
  // 10 → 11: the built-in test processor's own records (decision 0029), kept in the database so
  // every process and a restart see the same customers, cards and charges. Its ids are text, as
  // a processor's; the rowid keeps the order they came in. A charge's idempotency key is unique
  // while it is kept. Customers and cards the service holds (members' customer ids, saved cards)
  // are taken over, their outcome as the card's id said before (`pm_test_declined_…`: declined).
  `
  CREATE TABLE test_processor_customers (
    id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    name TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE test_processor_cards (
    id INTEGER PRIMARY KEY,
    card_id TEXT NOT NULL UNIQUE,
    customer_id TEXT NOT NULL,
    brand TEXT NOT NULL,
    last4 TEXT NOT NULL,
    exp_month INTEGER NOT NULL,
    exp_year INTEGER NOT NULL,
    decline_code TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX test_processor_cards_customer ON test_processor_cards (customer_id, id);
  CREATE TABLE test_processor_charges (
    id INTEGER PRIMARY KEY,
    invoice_id TEXT NOT NULL UNIQUE,
    charge_id TEXT NOT NULL UNIQUE,
    customer_id TEXT NOT NULL,
    card_id TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    currency TEXT NOT NULL,
    description TEXT NOT NULL,
    status TEXT NOT NULL,
    decline_code TEXT,
    idempotency_key TEXT UNIQUE,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX test_processor_charges_customer ON test_processor_charges (customer_id, id);
  INSERT OR IGNORE INTO test_processor_customers (customer_id, email, name, created_at)
    SELECT processor_customer_id, email, nullif(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), ''), created_at
    FROM members WHERE substr(processor_customer_id, 1, 9) = 'cus_test_' ORDER BY id;
  INSERT OR IGNORE INTO test_processor_cards (card_id, customer_id, brand, last4, exp_month, exp_year, decline_code, created_at)
    SELECT p.processor_id, m.processor_customer_id, p.brand, p.last4, p.exp_month, p.exp_year,
      CASE WHEN substr(p.processor_id, 1, 17) = 'pm_test_declined_' THEN 'card_declined'
           WHEN substr(p.processor_id, 1, 16) = 'pm_test_nofunds_' THEN 'insufficient_funds' END,
      p.created_at
    FROM payment_methods p JOIN members m ON m.site_id = p.site_id AND m.id = p.member_id
    WHERE substr(m.processor_customer_id, 1, 9) = 'cus_test_' AND substr(p.processor_id, 1, 8) = 'pm_test_' ORDER BY p.id;
  `,
  // 11 → 12: real money (issue 28, decision 0033). A site's payments settings (the processor,
  // Stripe's publishable key and the names of the variables holding its secrets, never the
  // secrets); each Stripe event a site's webhook handled, by Stripe's id, so a delivery Stripe
  // repeats is handled once.
  `
  ALTER TABLE sites ADD COLUMN payments TEXT;
  CREATE TABLE processor_events (
    site_id INTEGER NOT NULL REFERENCES sites(id),
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    PRIMARY KEY (site_id, event_id)
  );
  `,
  // 12 → 13: what Stripe's events name (issue 28): a charge, a saved card, a customer. The webhook
  // finds each by it within the site, as a seeded site's hundreds of thousands of rows need.
  `
  CREATE INDEX invoices_site_charge ON invoices (site_id, processor_charge_id);
  CREATE INDEX payment_methods_site_processor ON payment_methods (site_id, processor_id);
  CREATE INDEX members_site_processor_customer ON members (site_id, processor_customer_id) WHERE processor_customer_id IS NOT NULL;
  `,
  // 13 → 14: payments the test processor's bank wants authorized (issue 28): its 3-D Secure test cards.
  // A card says when its bank asks (`onSession`, `always`). An intent waits in `requiresAction`
  // until the member answers, then is settled once, with the charge it made or none. Its metadata
  // is a JSON object; its idempotency key is unique while kept.
  `
  ALTER TABLE test_processor_cards ADD COLUMN authentication TEXT;
  CREATE TABLE test_processor_intents (
    id INTEGER PRIMARY KEY,
    intent_id TEXT NOT NULL UNIQUE,
    client_secret TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    card_id TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    currency TEXT NOT NULL,
    description TEXT NOT NULL,
    metadata TEXT NOT NULL,
    status TEXT NOT NULL,
    charge_id TEXT,
    invoice_id TEXT,
    idempotency_key TEXT UNIQUE,
    created_at INTEGER NOT NULL
  );
  `,
  // 14 → 15: a downgrade waits for the period's end (decision 0036): the plan a membership
  // becomes at its next renewal.
  `
  ALTER TABLE memberships ADD COLUMN next_plan_id INTEGER;
  `,
  // 15 → 16: webhooks (issue 31). A site's endpoints; each message announced to them once, its
  // body the bytes every attempt and replay sends; one delivery a message and endpoint, claimed
  // for a lease (next_attempt_at moved forward) and finished succeeded or failed; each attempt's
  // answer. Deleting an endpoint deletes its deliveries and their attempts. AUTOINCREMENT: the old
  // rows are swept (deleteOldWebhookRecords), and their ids, shown to owners and paged by, must
  // not come back. New, empty tables.
  `
  CREATE TABLE webhook_endpoints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    url TEXT NOT NULL,
    -- JSON array of event types; NULL: every type
    events TEXT,
    allow_private INTEGER NOT NULL,
    -- whsec_…; NULL when secret_env names the variable of svc serve that holds it
    secret TEXT,
    secret_env TEXT,
    source TEXT NOT NULL CHECK (source IN ('cli', 'siteFile')),
    created_at INTEGER NOT NULL,
    previous_secret TEXT,
    previous_secret_until INTEGER,
    failing_since INTEGER,
    disabled_at INTEGER,
    disabled_reason TEXT
  );
  CREATE UNIQUE INDEX webhook_endpoints_site_id ON webhook_endpoints (site_id, id);

  CREATE TABLE webhook_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    -- msg_…: the webhook-id of every delivery of it
    public_id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX webhook_messages_site_id ON webhook_messages (site_id, id);

  CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    endpoint_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    -- when a pending delivery is due, or its claim ends
    next_attempt_at INTEGER NOT NULL,
    first_attempt_at INTEGER,
    finished_at INTEGER,
    -- a replay: the delivery it sends again (which may be swept before it: no foreign key)
    replay_of INTEGER,
    created_at INTEGER NOT NULL,
    FOREIGN KEY (site_id, message_id) REFERENCES webhook_messages (site_id, id),
    FOREIGN KEY (site_id, endpoint_id) REFERENCES webhook_endpoints (site_id, id) ON DELETE CASCADE
  );
  -- a claim: each endpoint's oldest pending delivery, one seek an endpoint
  CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, id) WHERE status = 'pending';
  -- the owner's list, newest first, and the attempts' key
  CREATE UNIQUE INDEX webhook_deliveries_site_id ON webhook_deliveries (site_id, id);
  -- an endpoint's list, and its deletion's cascade
  CREATE INDEX webhook_deliveries_site_endpoint ON webhook_deliveries (site_id, endpoint_id);
  -- the sweep: a message's deliveries, and the finished ones
  CREATE INDEX webhook_deliveries_site_message ON webhook_deliveries (site_id, message_id);
  CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE finished_at IS NOT NULL;

  CREATE TABLE webhook_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    delivery_id INTEGER NOT NULL,
    at INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    ok INTEGER NOT NULL,
    -- the answer's status; NULL when none came
    status INTEGER,
    -- the first 1 KB of the answer
    answer TEXT NOT NULL,
    error TEXT,
    FOREIGN KEY (site_id, delivery_id) REFERENCES webhook_deliveries (site_id, id) ON DELETE CASCADE
  );
  CREATE INDEX webhook_attempts_site_delivery ON webhook_attempts (site_id, delivery_id);
  CREATE INDEX webhook_attempts_at ON webhook_attempts (at);
  `,
  // The owner's actions (issue 32): a membership given for free is marked so, and never billed
  // or counted as revenue; an invoice keeps how much of it was refunded (the owner may refund
  // part), all of it for those refunded before.
  `
  ALTER TABLE memberships ADD COLUMN comp INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE invoices ADD COLUMN refunded_cents INTEGER NOT NULL DEFAULT 0;
  UPDATE invoices SET refunded_cents = total_cents WHERE status = 'refunded';
  `,
  // Members' uploaded pictures (issue 32, decision 0039): the re-encoded bytes once per site and
  // SHA-256 (their URL names the hash alone, so it is indexed on its own), and the picture each
  // member has. No foreign key between them (SQLite adds no composite one to an existing table):
  // the store's transactions keep them in step. Few members have a picture: a partial index finds
  // whether any other still does.
  `
  CREATE TABLE member_pictures (
    site_id INTEGER NOT NULL REFERENCES sites (id),
    hash TEXT NOT NULL,
    content_type TEXT NOT NULL,
    bytes BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (site_id, hash)
  );
  CREATE INDEX member_pictures_hash ON member_pictures (hash);
  ALTER TABLE members ADD COLUMN picture_hash TEXT;
  CREATE INDEX members_site_picture ON members (site_id, picture_hash) WHERE picture_hash IS NOT NULL;
  `,
];

/**
 * Brings the database up to the newest version this code knows; returns how many steps ran.
 * Throws when the database was written by newer code.
 */
export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new SchemaVersionError(
      `database schema version ${current} is newer than this build supports (${MIGRATIONS.length}); ` +
        'upgrade the service or use another database file',
    );
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return MIGRATIONS.length - current;
}
