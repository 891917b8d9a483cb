/**
 * Members: the Admin API's filters as a form (kept in the URL, so back and reload keep them), one
 * page of the list at a time with the cursor headers (Next follows X-Next-Cursor; Previous goes
 * back through the cursors this page was reached by), each member a link to their page, and CSV
 * of this page or of every member matching.
 */
import { MEMBER_STATUSES, type Member } from '../../contract/admin';
import type { Query } from '../api/admin-api';
import { readAll } from '../api/long-read';
import type { ConsoleContext } from '../context';
import { h, replace } from '../dom';
import { downloadCsv } from '../download';
import { dateTime, count } from '../format';
import { href } from '../router';
import { type Column, csvOf, dataTable } from '../ui/data-table';
import { ReadProgress } from '../ui/read-progress';

const FILTERS = ['firstName', 'lastName', 'email', 'status', 'createdAfter', 'createdBefore'] as const;
const PAGE_SIZES = [25, 50, 100];

export const memberName = (member: Member): string => [member.firstName, member.lastName].filter(Boolean).join(' ') || member.email;

export const MEMBER_COLUMNS: readonly Column<Member>[] = [
  { header: 'Id', numeric: true, cell: (m) => m.id },
  { header: 'Name', cell: (m) => h('a', { href: href({ view: 'member', id: m.id }) }, memberName(m)), csv: (m) => [m.firstName, m.lastName].filter(Boolean).join(' ') },
  { header: 'E-mail', cell: (m) => m.email },
  { header: 'Status', cell: (m) => m.status },
  { header: 'Joined', cell: (m) => dateTime(m.createdAt), csv: (m) => m.createdAt },
];

function field(label: string, input: HTMLInputElement | HTMLSelectElement, hint?: string): HTMLElement {
  input.id = `filter-${input.name}`;
  return h('div', { class: 'field' }, h('label', { for: input.id }, label), input, hint && h('span', { class: 'hint' }, hint));
}

export function membersView(ctx: ConsoleContext, query: URLSearchParams, signal: AbortSignal): HTMLElement {
  const filters: Query = Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? undefined]));
  const size = PAGE_SIZES.includes(Number(query.get('size'))) ? Number(query.get('size')) : 25;
  const value = (name: string) => query.get(name) ?? '';

  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter members' },
    field('First name', h('input', { name: 'firstName', value: value('firstName'), autocomplete: 'off' })),
    field('Last name', h('input', { name: 'lastName', value: value('lastName'), autocomplete: 'off' })),
    field('E-mail', h('input', { name: 'email', type: 'email', value: value('email'), autocomplete: 'off' })),
    field(
      'Status',
      h('select', { name: 'status' }, h('option', { value: '' }, 'Any'), MEMBER_STATUSES.map((s) => h('option', { value: s, selected: s === value('status') }, s))),
    ),
    field('Joined on or after', h('input', { name: 'createdAfter', type: 'date', value: value('createdAfter') }), 'UTC'),
    field('Joined before', h('input', { name: 'createdBefore', type: 'date', value: value('createdBefore') }), 'UTC, that day not included'),
    field('Per page', h('select', { name: 'size' }, PAGE_SIZES.map((n) => h('option', { value: n, selected: n === size }, String(n))))),
    h(
      'div',
      { class: 'filter-buttons' },
      h('button', { type: 'submit', class: 'primary' }, 'Filter'),
      h('a', { href: href({ view: 'members', query: new URLSearchParams() }), class: 'button secondary' }, 'Clear filters'),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [name, entry] of new FormData(form)) if (typeof entry === 'string' && entry.trim() !== '' && !(name === 'size' && entry === '25')) next.set(name, entry.trim());
    location.hash = href({ view: 'members', query: next });
  });

  const status = h('p', { class: 'page-status', role: 'status' });
  const results = h('div', { class: 'results' });
  const exportAll = h('div', { class: 'export-all' });
  /** The cursor each page was read with; the first page has none. */
  const cursors: (string | undefined)[] = [undefined];
  let pageIndex = 0;
  // One pager for every page, so the button pressed keeps the focus.
  const firstButton = h('button', { type: 'button', disabled: true, onclick: () => void show(0) }, 'First page');
  const previousButton = h('button', { type: 'button', disabled: true, onclick: () => void show(pageIndex - 1) }, 'Previous page');
  const nextButton = h('button', { type: 'button', disabled: true, onclick: () => void show(pageIndex + 1) }, 'Next page');
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages of members' }, firstButton, previousButton, nextButton);

  const show = async (index: number) => {
    status.textContent = 'Reading…';
    try {
      const page = await ctx.api.page<Member>('/members', filters, { size, signal, ...(cursors[index] && { cursor: cursors[index] }) });
      if (signal.aborted) return;
      pageIndex = index;
      if (page.hasMore) cursors[index + 1] = page.nextCursor;
      for (const member of page.items) ctx.members.set(member.id, member);
      const first = index * size + 1;
      status.textContent =
        page.items.length === 0
          ? index === 0
            ? 'No member matches.'
            : 'No more members.'
          : `Page ${index + 1}: members ${count(first)}–${count(first + page.items.length - 1)}${page.hasMore ? ', more follow' : ', the last page'}.`;
      firstButton.disabled = previousButton.disabled = index === 0;
      nextButton.disabled = !page.hasMore;
      replace(results, dataTable({ caption: `Members, page ${index + 1}`, filename: `members-page-${index + 1}`, columns: MEMBER_COLUMNS, rows: page.items }));
    } catch (error) {
      if (!signal.aborted) status.textContent = ctx.failed(error, 'read.members');
    }
  };

  const exportEverything = async () => {
    const progress = new ReadProgress('members', signal);
    replace(exportAll, progress.element);
    const rows: Member[] = [];
    try {
      const outcome = await readAll<Member>(ctx.api, '/members', filters, {
        signal: progress.signal,
        onPage(items, read) {
          rows.push(...items);
          progress.update(read);
        },
      });
      progress.finish(outcome);
      if (outcome.complete) downloadCsv('members.csv', csvOf(MEMBER_COLUMNS, rows));
    } catch (error) {
      progress.fail(ctx.failed(error, 'read.members'));
    }
  };

  void show(pageIndex);
  return h(
    'div',
    { class: 'view' },
    h('h1', { tabindex: -1 }, 'Members'),
    form,
    h('p', { class: 'note' }, 'Names and e-mail match exactly, as the Admin API filters them (e-mail in any case).'),
    status,
    results,
    pager,
    h('p', null, h('button', { type: 'button', onclick: () => void exportEverything() }, 'Export all matching members (CSV)')),
    exportAll,
  );
}
