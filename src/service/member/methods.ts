/**
 * The member API's known paths answer a method they do not take with 405, saying which ones they
 * take. The table is read from the routes the app has at this point (hono's `app.routes`), so a
 * new route gets its 405 without a list to keep beside it (five paths once lacked theirs).
 */
import type { MemberApp } from './context';
import { MemberError } from './errors';

export function methodsNotAllowed(app: MemberApp): void {
  const allowed = new Map<string, string[]>();
  for (const { path, method } of app.routes) {
    // Middleware (`use`, method ALL) and wildcards are no route of their own.
    if (method === 'ALL' || path.includes('*')) continue;
    const methods = allowed.get(path) ?? [];
    if (!methods.includes(method)) methods.push(method);
    allowed.set(path, methods);
  }
  for (const [path, methods] of allowed) {
    const allow = methods.join(', ');
    app.all(path, (c) => {
      throw MemberError.of(405, 'methodNotAllowed', `${c.req.method} is not supported here; use ${allow}`, 'base', { allow });
    });
  }
}
