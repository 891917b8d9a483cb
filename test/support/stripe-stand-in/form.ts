/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracket notation for
 * nesting (`metadata[plan]=gold`, `card[number]=4242…`, `expand[0]=latest_charge`), both in POST
 * bodies and in GET query strings. The stand-in checks parameters as Stripe does, by name and
 * nesting, so it needs the nested shape rather than the flat pairs.
 *
 * Values stay strings: whether `true` is a boolean or `50` an integer depends on the parameter,
 * and the endpoint decides that (server.ts), as Stripe's own validation does.
 */

export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export class FormError extends Error {
  override readonly name = 'FormError';
}

/** `a[b][0]=c&d=e` → `{ a: { b: ['c'] }, d: 'e' }`. Throws FormError on contradictory keys. */
export function parseForm(text: string): Record<string, FormValue> {
  const root: Record<string, Node> = {};
  if (text === '') return {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    insert(root, keyPath(decode(rawKey)), decode(rawValue), decode(rawKey));
  }
  return arraysFromIndexes(root) as Record<string, FormValue>;
}

// `+` is a space in this encoding (URLSearchParams agrees); decodeURIComponent alone would keep it.
function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw new FormError(`Invalid URL encoding: ${s}`);
  }
}

/** `a[b][]` → ['a', 'b', ''] — an empty segment appends to a list. */
function keyPath(key: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) throw new FormError(`Invalid parameter name: ${key}`);
  const segments = [m[1]!];
  for (const part of m[2]!.matchAll(/\[([^[\]]*)\]/g)) segments.push(part[1]!);
  // Keys reach plain objects: refuse the names that would reach their prototype instead.
  if (segments.some((s) => s === '__proto__' || s === 'constructor' || s === 'prototype')) {
    throw new FormError(`Invalid parameter name: ${key}`);
  }
  return segments;
}

type Node = string | { [key: string]: Node };

function insert(root: Record<string, Node>, path: string[], value: string, key: string): void {
  let node: Record<string, Node> = root;
  for (let i = 0; i < path.length; i++) {
    const last = i === path.length - 1;
    // `x[]` appends: give it the next free index, so it reads as `x[n]`.
    const seg = path[i] === '' ? String(Object.keys(node).length) : path[i]!;
    const existing = node[seg];
    if (last) {
      if (existing !== undefined) throw new FormError(`Parameter given more than once: ${key}`);
      node[seg] = value;
      return;
    }
    if (existing === undefined) node[seg] = {};
    const next = node[seg];
    if (typeof next === 'string') throw new FormError(`Parameter is both a value and an object: ${key}`);
    node = next!;
  }
}

// Objects whose keys are exactly 0..n-1 were lists (`expand[0]`, `expand[1]`): make them arrays.
function arraysFromIndexes(node: Node): FormValue {
  if (typeof node === 'string') return node;
  const keys = Object.keys(node);
  const entries = keys.map((k) => [k, arraysFromIndexes(node[k]!)] as const);
  const isList = keys.length > 0 && keys.every((k, i) => k === String(i));
  if (isList) return entries.map(([, v]) => v);
  return Object.fromEntries(entries);
}
