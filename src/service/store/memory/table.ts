/** The memory store's table: rows in id order, so a keyset page starts with a binary search. */
import { MissingReferenceError } from '../errors';
import type { Page, PageRequest } from '../queries';

/** The row of `table` with that id when it is the site's; else MissingReferenceError naming `field`. */
export function requireIn<T extends { siteId: number; id: number }>(table: Table<T>, siteId: number, id: number, field: string): T {
  const row = table.byId.get(id);
  if (!row || row.siteId !== siteId) throw new MissingReferenceError(field, `${field} ${id} does not exist in site ${siteId}`);
  return row;
}

/** Records are handed out as copies so a caller's mutation cannot reach the store. */
export const copy = <T>(value: T): T => structuredClone(value);

/** Rows of one kind in ascending id order, with lookup by id. */
export class Table<T extends { id: number }> {
  readonly rows: T[] = [];
  readonly byId = new Map<number, T>();
  private nextId = 1;

  /** The id the next insert gets (ids are never reused, even after deletes). */
  get nextInsertId(): number {
    return this.nextId;
  }

  insert(make: (id: number) => T): T {
    const row = make(this.nextId++);
    this.rows.push(row);
    this.byId.set(row.id, row);
    return row;
  }

  /** Removes the rows that match, keeping the others in id order; answers how many went. */
  deleteWhere(matches: (row: T) => boolean): number {
    let kept = 0;
    for (const row of this.rows) {
      if (matches(row)) this.byId.delete(row.id);
      else this.rows[kept++] = row;
    }
    const deleted = this.rows.length - kept;
    this.rows.length = kept;
    return deleted;
  }

  /** Keyset page: rows after `afterId` that match, ascending by id. */
  page(page: PageRequest, matches: (row: T) => boolean): Page<T> {
    const items: T[] = [];
    for (let i = this.firstIndexAfter(page.afterId ?? 0); i < this.rows.length; i++) {
      const row = this.rows[i]!;
      if (!matches(row)) continue;
      if (items.length === page.limit) return { items, hasMore: true };
      items.push(row);
    }
    return { items, hasMore: false };
  }

  private firstIndexAfter(afterId: number): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rows[mid]!.id <= afterId) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
