/** Checking input: zod failures as readable sentences, and the shape checks shared by the APIs. */
import type { z } from 'zod';
import type { JsonValue } from '../../contract/member';

/** A JSON object: not null, not an array. What a request body or a metadata level must be. */
export function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `text` as a normalized http(s) address (`URL.href`), or undefined when it is not one. */
export function httpAddress(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
}

/** Turns a zod failure into one readable sentence per problem, naming the dotted path. */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  constructor(readonly issues: { path: string; message: string }[]) {
    super(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '));
  }
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(
    result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}
