/** Walking an OpenAPI document, for the tests that check one's structure (test/member-openapi.test.ts). */
import type { OpenApiDocument, OpenApiObject } from '../../src/service/openapi/document';

/** Every object node of the document with its JSON pointer. */
export function* walk(node: unknown, pointer = '#'): Generator<[string, OpenApiObject]> {
  if (node === null || typeof node !== 'object') return;
  if (!Array.isArray(node)) yield [pointer, node as OpenApiObject];
  for (const [key, value] of Object.entries(node)) yield* walk(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
}

/** A local `$ref` (`#/…`) of the document; undefined when it names nothing. */
export function deref(document: OpenApiDocument, ref: string): unknown {
  let target: unknown = document;
  for (const part of ref.slice(2).split('/')) {
    target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return target;
}

/** `node`, or what it refers to. */
export const resolved = (document: OpenApiDocument, node: OpenApiObject): OpenApiObject =>
  (typeof node.$ref === 'string' ? deref(document, node.$ref) : node) as OpenApiObject;

/** Every operation of the document: its path template, method (lower case) and object. */
export const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([template, item]) => Object.entries(item).map(([method, op]) => ({ template, method, op })));
