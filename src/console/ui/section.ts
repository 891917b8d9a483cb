/** A titled part of a view (a landmark with its heading), and the line saying what a key may not read. */
import type { Scope } from '../../contract/admin';
import { lacksMessage } from '../api/capabilities';
import { type Child, h, uniqueId } from '../dom';

export function section(title: string, ...children: Child[]): HTMLElement {
  const id = uniqueId('section');
  return h('section', { 'aria-labelledby': id, class: 'panel' }, h('h2', { id }, title), ...children);
}

/** "This key cannot read members (needs read.members)", one line per scope. */
export function missingScopes(scopes: readonly Scope[]): HTMLElement | null {
  if (scopes.length === 0) return null;
  return h('ul', { class: 'missing-scopes' }, scopes.map((scope) => h('li', null, lacksMessage(scope))));
}
