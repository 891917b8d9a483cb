/**
 * Member metadata rules (spec 2.8), decided where the spec is silent (docs/member-api.md):
 * - the stored value and every update are plain JSON objects at the top level;
 * - an update merges into the stored object at every level of nested objects;
 * - `null` removes the key, at any level (and is a no-op when the key is absent);
 * - arrays, strings, numbers and booleans replace what was there: arrays are values, never
 *   merged element by element, and a `null` inside an array is kept as a value;
 * - an object replacing a non-object is stored with its `null` keys dropped;
 * - the result may not exceed METADATA_MAX_BYTES of JSON nor METADATA_MAX_DEPTH levels;
 * - every number must be finite: JSON.parse reads `1e999` as Infinity, which JSON.stringify
 *   would then store as `null`, so such an update is refused rather than quietly changed;
 * - text follows the service's one rule (textProblem): every string value, at any depth, is
 *   multi-line text (tab, LF and CRLF kept; no other control character, no lone surrogate), and
 *   every key, at any depth, is one-line text (no control character at all, no lone surrogate).
 */
import { METADATA_MAX_BYTES, METADATA_MAX_DEPTH, type JsonValue, type MemberMetadata } from '../../contract/member';
import { isJsonObject, textProblem } from './validation';

export class MetadataError extends Error {
  constructor(
    readonly code: 'invalidMetadata' | 'metadataTooLarge',
    message: string,
  ) {
    super(message);
  }
}

type JsonObject = { [key: string]: JsonValue };

/** Throws MetadataError unless `value` is an object usable as a metadata update. */
export function assertMetadataPatch(value: unknown): asserts value is MemberMetadata {
  if (value === null) throw new MetadataError('invalidMetadata', 'Metadata cannot be replaced by null; send an object');
  if (!isJsonObject(value)) {
    throw new MetadataError('invalidMetadata', `Metadata must be a JSON object, not ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  if (depthOf(value) > METADATA_MAX_DEPTH) {
    throw new MetadataError('invalidMetadata', `Metadata may nest at most ${METADATA_MAX_DEPTH} levels deep`);
  }
  if (hasNonFiniteNumber(value)) {
    throw new MetadataError('invalidMetadata', 'Metadata numbers must be finite: a number such as 1e999 is too large for JSON');
  }
  const text = firstTextProblem(value);
  if (text) throw new MetadataError('invalidMetadata', text);
}

/** The stored object after `patch`; neither argument is modified. */
export function mergeMetadata(stored: MemberMetadata, patch: MemberMetadata): MemberMetadata {
  const merged = mergeObjects(stored, patch);
  if (depthOf(merged) > METADATA_MAX_DEPTH) {
    throw new MetadataError('invalidMetadata', `Metadata may nest at most ${METADATA_MAX_DEPTH} levels deep`);
  }
  const bytes = utf8Length(JSON.stringify(merged));
  if (bytes > METADATA_MAX_BYTES) {
    throw new MetadataError(
      'metadataTooLarge',
      `Metadata would take ${bytes} bytes of JSON after this update; the limit is ${METADATA_MAX_BYTES}`,
    );
  }
  return merged;
}

function mergeObjects(base: JsonObject, patch: JsonObject): JsonObject {
  const out = copyObject(base);
  for (const key of Object.keys(patch)) {
    const value = patch[key] as JsonValue;
    if (value === null) {
      delete out[key];
      continue;
    }
    const current = Object.hasOwn(out, key) ? out[key] : undefined;
    const next = isJsonObject(value) ? mergeObjects(isJsonObject(current) ? current : {}, value) : value;
    // defineProperty, not assignment: a key named "__proto__" must stay an ordinary key.
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function copyObject(source: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(source)) {
    Object.defineProperty(out, key, { value: source[key], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Levels of objects and arrays: `{}` is 1, `{a: []}` is 2. Iterative, so hostile depth cannot overflow the stack. */
function depthOf(root: JsonValue): number {
  let deepest = 0;
  const stack: Array<[JsonValue, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > METADATA_MAX_DEPTH) return deepest;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Whether any number at any level is Infinity, -Infinity or NaN. Iterative, like depthOf. */
function hasNonFiniteNumber(root: JsonValue): boolean {
  const stack: JsonValue[] = [root];
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (typeof value === 'number' && !Number.isFinite(value)) return true;
    if (typeof value !== 'object' || value === null) continue;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child);
  }
  return false;
}

/** A key as a path names it: plain when it is a simple word, else as a JSON string (a NUL shows as \u0000). */
const pathSegment = (key: string): string => (/^[\p{L}\p{N}_$-]+$/u.test(key) ? key : JSON.stringify(key));

/**
 * Why some string value or key at any level is not text by the service's rule, naming where
 * (`prefs.deep.x`, `list.1`, `"\u0000"`); undefined when all are. Iterative, like depthOf.
 */
function firstTextProblem(root: JsonObject): string | undefined {
  const stack: Array<[JsonValue, string]> = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    const at = (segment: string) => (path ? `${path}.${segment}` : segment);
    if (typeof value === 'string') {
      const problem = textProblem(value, { multiline: true });
      if (problem) return `Metadata value at ${path} ${problem}`;
    } else if (Array.isArray(value)) {
      value.forEach((child, i) => { stack.push([child, at(String(i))]); });
    } else if (isJsonObject(value)) {
      for (const key of Object.keys(value)) {
        const problem = textProblem(key);
        if (problem) return `Metadata key ${at(JSON.stringify(key))} ${problem}`;
        stack.push([value[key] as JsonValue, at(pathSegment(key))]);
      }
    }
  }
  return undefined;
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
