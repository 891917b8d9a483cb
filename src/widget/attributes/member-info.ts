import type { MemberDelegate } from './member-delegate';
import { MemberText } from './member-text';
import type { MemberValues } from './member-values';
import { isFormControl, stillArriving } from './names';
import { Prefill } from './prefill';

/**
 * `data-svc-member-info` (spec 4.1) in both its forms, behind one observer: the value written
 * into an element (MemberText) or filled into a form control (Prefill). Which one an element
 * gets depends on its tag alone, which never changes.
 */
export class MemberInfo implements MemberDelegate {
  readonly _text: MemberText;
  readonly _prefill: Prefill;

  constructor(values: MemberValues) {
    this._text = new MemberText(values);
    this._prefill = new Prefill(values);
  }

  _for(element: Element): MemberText | Prefill {
    return isFormControl(element) ? this._prefill : this._text;
  }

  _matchElement(): boolean {
    return true;
  }

  _elementMatched(element: Element): void {
    this._render(element);
  }

  _elementAttributeChanged(element: Element): void {
    this._render(element);
  }

  _elementUnmatched(element: Element): void {
    if (!isFormControl(element)) this._text._restore(element);
  }

  _render(element: Element): void {
    if (!stillArriving(element)) this._for(element)._render(element);
  }
}
