/**
 * The overview: members, memberships and revenue, conversions and content, each a panel that
 * reads its list on its own (all at once: each shows its progress and can be stopped), and only
 * the panels the key may read; the others are named with the scope they need.
 */
import type { Scope } from '../../contract/admin';
import type { ConsoleContext } from '../context';
import { h } from '../dom';
import { lastWeeks } from '../metrics/weeks';
import { href, WEEK_CHOICES } from '../router';
import { missingScopes } from '../ui/section';
import { contentPanel } from './overview-content';
import { conversionsPanel } from './overview-conversions';
import { membersPanel } from './overview-members';
import { membershipsPanel } from './overview-memberships';

export function overviewView(ctx: ConsoleContext, weekCount: number, signal: AbortSignal): HTMLElement {
  const weeks = lastWeeks(Date.now(), weekCount);
  const can = (scope: Scope) => ctx.capabilities.has(scope);
  const lacking = (['read.members', 'read.memberships', 'read.memberEvents', 'read.contentViews'] as const).filter((scope) => !can(scope));
  const choose = h(
    'select',
    {
      id: 'weeks',
      onchange: (event: Event) => {
        location.hash = href({ view: 'overview', weeks: Number((event.target as HTMLSelectElement).value) });
      },
    },
    WEEK_CHOICES.map((n) => h('option', { value: n, selected: n === weekCount }, `${n} weeks`)),
  );
  return h(
    'div',
    { class: 'view' },
    h('h1', { tabindex: -1 }, 'Overview'),
    h('p', { class: 'weeks' }, h('label', { for: 'weeks' }, 'Charts cover the last'), ' ', choose, ' ', '(weeks from Monday, UTC; this week so far included).'),
    lacking.length > 0 && h('div', { class: 'not-shown' }, h('p', null, 'Not shown:'), missingScopes(lacking)),
    can('read.members') && membersPanel(ctx, weeks, signal),
    can('read.memberships') && membershipsPanel(ctx, signal),
    can('read.memberEvents') && conversionsPanel(ctx, weeks, signal),
    can('read.contentViews') && contentPanel(ctx, weeks, signal),
  );
}
