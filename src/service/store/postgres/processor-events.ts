/** The PostgreSQL store's record of the processor events each site's webhook handled (decision 0033). */
import type { ProcessorEventMethods } from '../store';
import { PROCESSOR_EVENT_INSERT } from '../sql-rows';
import type { PostgresConnection } from './connection';

export function postgresProcessorEvents(conn: PostgresConnection): ProcessorEventMethods {
  return {
    // One statement: of two processes inserting the same event, one inserts and one finds it there.
    recordProcessorEvent: async (e) => (await conn.run(PROCESSOR_EVENT_INSERT, e.siteId, e.eventId, e.type, e.receivedAt)) > 0,
  };
}
