import { log } from '../diagnostics';
import { parseCriterion, type Criterion } from './criteria';
import type { MemberDelegate } from './member-delegate';
import type { MemberSource } from './member-source';
import { HIDDEN, HIDE, SHOW } from './names';

const NEVER: Criterion = () => false;

/**
 * `data-svc-show` and `data-svc-hide` (spec 4.1). A hidden element carries HIDDEN, which the
 * hiding style turns into `display: none`; shown, it is left to the page's own styles.
 */
export class Visibility implements MemberDelegate {
  /** Each element's [show, hide] criteria, parsed when its attributes change. */
  readonly _criteria = new WeakMap<Element, [Criterion | undefined, Criterion | undefined]>();
  /** Elements shown at least once: their anti-flicker inline `display: none` is gone. */
  readonly _revealed = new WeakSet<Element>();

  constructor(readonly _state: MemberSource) {}

  _matchElement(): boolean {
    return true;
  }

  _elementMatched(element: Element): void {
    this._elementAttributeChanged(element);
  }

  _elementAttributeChanged(element: Element): void {
    this._criteria.set(element, [criterion(element, SHOW), criterion(element, HIDE)]);
    this._render(element);
  }

  _elementUnmatched(element: Element): void {
    this._criteria.delete(element);
    element.removeAttribute(HIDDEN);
  }

  _render(element: Element): void {
    const [show, hide] = this._criteria.get(element)!;
    const { _member: member, _known: known } = this._state;
    // Until the login is known, neither the content nor its placeholder is right to show.
    const shown = known && (!show || show(member)) && !hide?.(member);
    if (shown === element.hasAttribute(HIDDEN)) element.toggleAttribute(HIDDEN, !shown);
    if (shown && !this._revealed.has(element)) {
      this._revealed.add(element);
      // Spec 4.1 suggests an inline display:none against flicker; the first reveal lifts it.
      const style = (element as HTMLElement).style as CSSStyleDeclaration | undefined;
      if (style?.display === 'none') style.removeProperty('display');
    }
  }
}

/** The element's criterion for `name`; an unknown one is reported and never matches. */
function criterion(element: Element, name: string): Criterion | undefined {
  const text = element.getAttribute(name);
  if (text === null) return undefined;
  const parsed = parseCriterion(text);
  if (parsed) return parsed;
  log.warn(`${name}="${text}" is not a criterion (auth, free, paid, plan(id), plan(id,id,…)); treated as not matching:`, element);
  return NEVER;
}
