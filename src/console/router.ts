/**
 * Where the console is, in the URL's fragment: `#/` (overview; `#/?weeks=26` for 26 weeks), `#/members?email=…` (the table
 * and its filters), `#/members/42` (a member), `#/plans`. A fragment never reaches the server,
 * and the back button, reloads and bookmarks work without one.
 */
/** The overview's choices of how many weeks its charts cover. */
export const WEEK_CHOICES = [4, 12, 26, 52] as const;
export const DEFAULT_WEEKS = 12;

export type Route =
  | { view: 'overview'; weeks: number }
  | { view: 'members'; query: URLSearchParams }
  | { view: 'member'; id: number }
  | { view: 'plans' };

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'members' && parts.length === 1) return { view: 'members', query: new URLSearchParams(search) };
  if (parts[0] === 'members' && parts.length === 2 && /^[1-9]\d{0,15}$/.test(parts[1]!)) return { view: 'member', id: Number(parts[1]) };
  if (parts[0] === 'plans' && parts.length === 1) return { view: 'plans' };
  const weeks = Number(new URLSearchParams(search).get('weeks'));
  return { view: 'overview', weeks: (WEEK_CHOICES as readonly number[]).includes(weeks) ? weeks : DEFAULT_WEEKS };
}

export function href(route: Route): string {
  switch (route.view) {
    case 'overview':
      return route.weeks === DEFAULT_WEEKS ? '#/' : `#/?weeks=${route.weeks}`;
    case 'members': {
      const search = route.query.toString();
      return `#/members${search ? `?${search}` : ''}`;
    }
    case 'member':
      return `#/members/${route.id}`;
    case 'plans':
      return '#/plans';
  }
}
