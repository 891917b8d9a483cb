/**
 * The minimal keyset page: `?after=ID` (default 0), the next 26 members by id, 25 of them as the
 * Admin API's member resources, `x-has-more-items-after` from the 26th. ./page-server.ts serves it.
 */
import type { ServerResponse } from 'node:http';
import type { Handler } from './serve';
import { fail } from './serve';
import type { MemberRow, Source } from './source';

export const PAGE = 25;

const toMember = (r: MemberRow) => ({
  id: r[0],
  email: r[1],
  firstName: r[2] ?? undefined,
  lastName: r[3] ?? undefined,
  status: r[4],
  createdAt: new Date(r[5]).toISOString(),
});

function answer(res: ServerResponse, rows: MemberRow[]): void {
  const hasMore = rows.length > PAGE;
  const body = JSON.stringify((hasMore ? rows.slice(0, PAGE) : rows).map(toMember));
  res.writeHead(200, { 'content-type': 'application/json', 'x-has-more-items-after': String(hasMore) });
  res.end(body);
}

export function pageHandler(source: Source): Handler {
  return (req, res) => {
    const at = req.url!.indexOf('after=');
    const afterId = at === -1 ? 0 : Number.parseInt(req.url!.slice(at + 6), 10) || 0;
    const rows = source.membersAfter(afterId, PAGE + 1);
    if (Array.isArray(rows)) answer(res, rows);
    else rows.then((r) => answer(res, r), (error: unknown) => fail(res, error));
  };
}
