/**
 * A deep copy of JSON data: what the widget hands the page, so the page cannot reach into
 * the widget's own state.
 */
export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** JSON text of `value`, or undefined when it has none (a cycle, a BigInt…). */
export function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Structural equality of JSON data; key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) {
    return false;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => key in right && deepEqual(left[key], right[key]));
}

/** A plain `{…}` object: not null, not an array. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);
