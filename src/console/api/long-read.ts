/**
 * Reading a whole list, for a chart or an export: a page of 100 at a time (the most the API
 * gives), each handed to `onPage` to be counted and dropped, so a million members are never in
 * memory at once. Between pages the page gets a turn of the event loop (painting, clicks, the
 * Stop button); a 429 is waited out by the API client. Stopping (the signal) ends the read
 * between two pages or during a wait, and says how far it got.
 */
import { type AdminApi, type Query, Stopped } from './admin-api';

export interface ReadOutcome {
  read: number;
  /** False when it was stopped before the last page. */
  complete: boolean;
}

export interface LongReadOptions<T> {
  signal: AbortSignal;
  onPage(items: T[], readSoFar: number): void;
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function readAll<T>(api: AdminApi, path: string, query: Query | undefined, options: LongReadOptions<T>): Promise<ReadOutcome> {
  let read = 0;
  let cursor: string | undefined;
  try {
    for (;;) {
      if (options.signal.aborted) return { read, complete: false };
      const page = await api.page<T>(path, query, { size: 100, signal: options.signal, ...(cursor && { cursor }) });
      read += page.items.length;
      options.onPage(page.items, read);
      if (!page.hasMore) return { read, complete: true };
      cursor = page.nextCursor;
      await nextTurn();
    }
  } catch (error) {
    if (error instanceof Stopped || options.signal.aborted) return { read, complete: false };
    throw error;
  }
}
