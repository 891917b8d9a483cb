/** The SQLite store's record of the processor events each site's webhook handled (decision 0033). */
import type { ProcessorEventMethods } from '../store';
import { PROCESSOR_EVENT_INSERT } from '../sql-rows';
import type { SqliteConnection } from './connection';

export function sqliteProcessorEvents({ sql, write }: SqliteConnection): ProcessorEventMethods {
  return {
    // One statement: of two processes inserting the same event, one inserts and one finds it there.
    recordProcessorEvent: async (e) => write(sql(PROCESSOR_EVENT_INSERT), e.siteId, e.eventId, e.type, e.receivedAt).changes > 0,
  };
}
