/**
 * One line a request, for operators (`svc serve`): its id, method, path, status and time. The id
 * is the `X-Request-Id` a proxy in front sent, when it looks like one, else a new one; the answer
 * carries it back, and the app gets it beside the request (Connection.requestId), so its error
 * lines name it. Nothing of
 * what a request carries is written: no query string (a page's address may hold a mailed link's
 * token), no header, no body.
 */
import { randomUUID } from 'node:crypto';
import type { FetchHandler } from './server';

/** An id a proxy may have given: letters, digits, `.`, `_` and `-`, at most 64 of them. */
const REQUEST_ID = /^[\w.-]{1,64}$/;

export interface AccessLine {
  reqId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

export function withAccessLog(fetch: FetchHandler, write: (line: AccessLine) => void): FetchHandler {
  return async (request, connection) => {
    const given = request.headers.get('x-request-id');
    const reqId = given && REQUEST_ID.test(given) ? given : randomUUID();
    const started = performance.now();
    let status = 500;
    try {
      const answered = await fetch(request, { ...connection, requestId: reqId });
      // An answer whose headers cannot change (one made by fetch()) is copied first.
      const answer = withHeader(answered, reqId) ?? withHeader(new Response(answered.body, answered), reqId)!;
      status = answer.status;
      return answer;
    } finally {
      write({ reqId, method: request.method, path: new URL(request.url).pathname, status, ms: Math.round((performance.now() - started) * 10) / 10 });
    }
  };
}

/** The answer with its X-Request-Id; undefined when its headers cannot change. */
function withHeader(answer: Response, reqId: string): Response | undefined {
  try {
    answer.headers.set('x-request-id', reqId);
    return answer;
  } catch {
    return undefined;
  }
}
