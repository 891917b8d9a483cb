/**
 * One operation of the member API from what sets it apart: its session, its body, its answers
 * and the error codes of its own. The errors every route of its kind can answer are added here,
 * in the order a request meets them: the site and its origin (../site-scope.ts: 404, 403), the
 * session (../sessions.ts: 401), the body (../body.ts: 400, 413), and a fault of the service (500).
 */
import type { MemberApiErrorCode } from '../../../contract/member';
import { componentRef, json, type OpenApiObject } from '../../openapi/document';
import { schemaRef, type Schema } from '../../openapi/schema-helpers';
import { errorResponse, responseHeaders, SHARED_ERRORS } from './http';

export interface Answer {
  description: string;
  /** A component's name, or a schema; none: no body (204). */
  schema?: string | Schema;
  /** Sent with `Cache-Control: no-store` (an answer holding member data). */
  noStore?: boolean;
}

export interface OperationSpec {
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** `required`: 401 `unauthenticated` without a live session; `optional`: read when sent, never refused. */
  session?: 'required' | 'optional';
  /** Beyond `subdomain`. */
  parameters?: OpenApiObject[];
  /** The component schema of the JSON body the route reads. */
  body?: string;
  /** A body of bytes instead (a picture): the media types it may be sent as, and what it is. Its 400 and 413 are its own (`errors`). */
  upload?: { types: readonly string[]; description: string };
  answers: Record<number, Answer>;
  /** Error codes of the operation's own, by status, beyond the ones added here. */
  errors?: Partial<Record<number, MemberApiErrorCode[]>>;
}

const asSchema = (schema: string | Schema): Schema => (typeof schema === 'string' ? schemaRef(schema) : schema);

/** The shared response for a status that carries one code, when there is one; else the response itself. */
function errorAnswer(status: number, codes: readonly MemberApiErrorCode[]): OpenApiObject {
  const shared = Object.entries(SHARED_ERRORS).find(([, [s, code]]) => s === status && codes.length === 1 && codes[0] === code);
  return shared ? componentRef('responses', shared[0]) : errorResponse(status, codes);
}

/** The error codes of each status the operation can answer. */
function errorCodes(spec: OperationSpec): Map<number, MemberApiErrorCode[]> {
  const codes = new Map<number, MemberApiErrorCode[]>();
  const add = (status: number, more: readonly MemberApiErrorCode[]) => {
    const list = codes.get(status) ?? [];
    codes.set(status, [...list, ...more.filter((code) => !list.includes(code))]);
  };
  add(403, ['originNotAllowed']);
  add(404, ['notFound']);
  if (spec.session === 'required') add(401, ['unauthenticated']);
  if (spec.body) {
    add(400, ['invalidBody']);
    add(413, ['invalidBody']);
  }
  for (const [status, more] of Object.entries(spec.errors ?? {})) add(Number(status), more ?? []);
  add(500, ['internalError']);
  return codes;
}

export function operation(spec: OperationSpec): OpenApiObject {
  const answers = Object.entries(spec.answers).map(([status, answer]) => [
    status,
    {
      description: answer.description,
      ...(answer.noStore && { headers: responseHeaders({ 'Cache-Control': 'CacheControl' }) }),
      ...(answer.schema !== undefined && { content: json(asSchema(answer.schema)) }),
    },
  ]);
  const errors = [...errorCodes(spec)].sort(([a], [b]) => a - b).map(([status, codes]) => [String(status), errorAnswer(status, codes)]);
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [spec.tag],
    ...(spec.session === 'required' && { security: [{ memberSession: [] }] }),
    // Either way: a session is read when sent.
    ...(spec.session === 'optional' && { security: [{}, { memberSession: [] }] }),
    parameters: [componentRef('parameters', 'Subdomain'), ...(spec.parameters ?? [])],
    ...(spec.body && { requestBody: { required: true, content: json(schemaRef(spec.body)) } }),
    ...(spec.upload && { requestBody: { required: true, description: spec.upload.description, content: bytesOf(spec.upload.types) } }),
    responses: Object.fromEntries([...answers, ...errors]),
  };
}

/** Content of bytes (a picture) in each of the media types: a string of that type, not JSON. */
export const bytesOf = (types: readonly string[]): OpenApiObject =>
  Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]));

/** A query parameter. */
export const query = (name: string, description: string, schema: Schema, required = false): OpenApiObject => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});

export const arrayOf = (name: string): Schema => ({ type: 'array', items: schemaRef(name) });
