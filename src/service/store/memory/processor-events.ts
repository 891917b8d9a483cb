/** The memory store's record of the processor events each site's webhook handled (decision 0033). */
import type { ProcessorEventMethods } from '../store';

export function memoryProcessorEvents(): ProcessorEventMethods {
  const handled = new Set<string>();
  return {
    async recordProcessorEvent({ siteId, eventId }) {
      const key = `${siteId}\n${eventId}`;
      if (handled.has(key)) return false;
      handled.add(key);
      return true;
    },
  };
}
