/**
 * The body of an owner action (issue 32): a small JSON object checked by a zod schema, every
 * problem named at once (`path` = the field) with 400 `invalidBody`; nothing changes then. An
 * action that takes no input accepts an empty body.
 */
import type { z } from 'zod';
import { readBoundedBody } from '../http/bounded-body';
import { AdminError } from './errors';

/** Far above any action's input. */
const MAX_BODY_BYTES = 4096;

const invalid = (message: string, path = 'base') => AdminError.of(400, 'invalidBody', message, path);

export async function readActionBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const bytes = await readBoundedBody(request, MAX_BODY_BYTES);
  if (!bytes) throw AdminError.of(413, 'invalidBody', `The body exceeds ${MAX_BODY_BYTES} bytes`);
  let value: unknown = {};
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.trim() !== '') {
    if (!/^application\/json\s*(;|$)/i.test(request.headers.get('content-type') ?? '')) {
      throw AdminError.of(415, 'invalidBody', 'Send the body as JSON, with Content-Type: application/json');
    }
    try {
      value = JSON.parse(text);
    } catch {
      throw invalid('The body is not valid JSON');
    }
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new AdminError(
    400,
    parsed.error.issues.map((issue) => ({ path: issue.path.length ? issue.path.join('.') : 'base', code: 'invalidBody' as const, message: issue.message })),
  );
}
