/**
 * The tables `svc db copy` moves, parents before children (so every foreign key finds its row
 * already there), each with the key it is read in order of. Both stores have the same tables and
 * columns (../postgres/migrations). A table of either schema missing here makes the copy refuse
 * to start, and test/cli/db-copy.test.ts checks the list against both schemas.
 */
export interface CopiedTable {
  name: string;
  /** The primary key's columns: rows are read in this order, a batch after the last one's key. */
  key: readonly string[];
  /** The key is a generated `id`: the target's next id is set to follow the source's. */
  generatedId: boolean;
  /** Rows per read and write, for a table of large rows (copy-database's BATCH otherwise). */
  batch?: number;
}

/**
 * Tables each database keeps for itself, not copied: the definition's version (decision 0027) moves
 * on the target by itself as the copy writes sites, plans, fields and keys.
 */
export const BOOKKEEPING_TABLES: readonly string[] = ['definition_version'];

const withId = (name: string): CopiedTable => ({ name, key: ['id'], generatedId: true });

export const COPIED_TABLES: readonly CopiedTable[] = [
  { name: 'secrets', key: ['name'], generatedId: false },
  withId('sites'),
  withId('plans'),
  withId('signup_fields'),
  withId('members'),
  // Members' uploaded pictures (decision 0039), up to some 100 KB each: a few at a time.
  { name: 'member_pictures', key: ['site_id', 'hash'], generatedId: false, batch: 100 },
  { name: 'signup_values', key: ['member_id', 'field_id'], generatedId: false },
  { name: 'member_metadata', key: ['member_id'], generatedId: false },
  withId('memberships'),
  withId('member_events'),
  withId('content_spaces'),
  { name: 'content_space_plans', key: ['site_id', 'space_id', 'plan_id'], generatedId: false },
  withId('content_nodes'),
  withId('content_views'),
  withId('api_keys'),
  withId('sessions'),
  withId('payment_methods'),
  withId('invoices'),
  withId('mail_outbox'),
  withId('member_tokens'),
  // State the processes share (SQLite's version 9): limits on guessing and sign-ups, and leases.
  // Copied as they are, so a move does not hand an attacker fresh tries.
  { name: 'rate_cells', key: ['key'], generatedId: false },
  { name: 'throttles', key: ['key'], generatedId: false },
  { name: 'leases', key: ['name'], generatedId: false },
  // The built-in test processor's records (decision 0029): the customers, cards and charges that
  // members' customer ids and saved cards name, the intents waiting for a member's authorization
  // (SQLite's version 14), and the idempotency keys of recent charges and intents.
  withId('test_processor_customers'),
  withId('test_processor_cards'),
  withId('test_processor_charges'),
  withId('test_processor_intents'),
  // The Stripe events each site's webhook handled (decision 0033): copied, so a delivery Stripe
  // repeats after a move is still handled once.
  { name: 'processor_events', key: ['site_id', 'event_id'], generatedId: false },
  // Webhooks (issue 31): endpoints, the messages announced to them, their deliveries (pending ones
  // too, so a move loses no message) and attempts.
  withId('webhook_endpoints'),
  withId('webhook_messages'),
  withId('webhook_deliveries'),
  withId('webhook_attempts'),
];
