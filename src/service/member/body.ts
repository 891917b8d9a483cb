/** Reads a JSON request body, refusing what is too large or not JSON with a clear 400/413. */
import { isJsonObject } from '../domain/validation';
import { readBoundedBody } from '../http/bounded-body';
import { MemberError } from './errors';

/** Larger than any sign-up form or metadata update the service accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

export async function readJson(request: Request): Promise<unknown> {
  const bytes = await readBoundedBody(request, MAX_BODY_BYTES);
  if (!bytes) throw tooLarge();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw MemberError.of(400, 'invalidBody', 'The body is not UTF-8 text');
  }
  if (text.trim() === '') throw MemberError.of(400, 'invalidBody', 'The body is empty; send JSON');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw MemberError.of(400, 'invalidBody', 'The body is not valid JSON');
  }
}

export async function readObject(request: Request): Promise<Record<string, unknown>> {
  const body = await readJson(request);
  if (!isJsonObject(body)) throw MemberError.of(400, 'invalidBody', 'The body must be a JSON object');
  return body;
}

function tooLarge() {
  return MemberError.of(413, 'invalidBody', `The body exceeds ${MAX_BODY_BYTES} bytes`);
}
