/** Errors every store implementation throws for the same broken rule, so callers branch on one type. */

/** A unique value is taken: a site's subdomain, a member's e-mail within a site, a plan's public id. */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

/** A referenced row does not exist within the same site (member, plan, content node or space). */
export class MissingReferenceError extends Error {
  override readonly name = 'MissingReferenceError';
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

/** The database was written by a newer build (a schema version this one does not know): nothing is touched. */
export class SchemaVersionError extends Error {
  override readonly name = 'SchemaVersionError';
}
