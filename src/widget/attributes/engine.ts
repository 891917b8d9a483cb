import type { CheckboxLabels } from '../checkbox-labels';
import { ElementObserver } from './element-observer';
import { addHidingStyle } from './hiding-style';
import { MemberInfo } from './member-info';
import type { MemberSource } from './member-source';
import { MemberValues } from './member-values';
import { HIDE, MEMBER_INFO, SHOW, isFormControl, stillArriving } from './names';
import { Visibility } from './visibility';

/** Keeps the page's data-svc-* elements in step with the member (spec 4.1). */
export interface AttributeEngine {
  /** Draws the page as it is and follows its changes. Safe to call twice. */
  _start(): void;
  /** Takes the widget's marks and text out of the page and stops following it. Safe to call twice. */
  _stop(): void;
  /** Finds and redraws every element again, as after a change the observers could not see. */
  _refresh(): void;
  /** Redraws every element for the member as it is now. */
  _render(): void;
}

export function attributeEngine(doc: Document, state: MemberSource, labels: CheckboxLabels): AttributeEngine {
  const root = doc.documentElement;
  const visibility = new ElementObserver(root, `[${SHOW}],[${HIDE}]`, [SHOW, HIDE], new Visibility(state));
  const info = new ElementObserver(root, `[${MEMBER_INFO}]`, [MEMBER_INFO], new MemberInfo(new MemberValues(state, labels)));
  const observers = [visibility, info];
  let removeStyle: (() => void) | undefined;
  const engine: AttributeEngine = {
    _start() {
      removeStyle ??= addHidingStyle(doc);
      for (const observer of observers) observer._start();
      // What was still arriving (names.ts, stillArriving) is drawn once the parser is done.
      if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', () => engine._render(), { once: true });
    },
    _stop() {
      for (const observer of observers) observer._stop();
      removeStyle?.();
      removeStyle = undefined;
    },
    _refresh() {
      for (const observer of observers) observer._refresh();
      engine._render();
    },
    _render() {
      // A change the page made in this same task is taken in first: draw the page as it is.
      for (const observer of observers) observer._flush();
      for (const element of visibility._elements) visibility._delegate._render(element);
      const controls: Element[] = [];
      for (const element of info._elements) {
        if (stillArriving(element)) continue;
        if (isFormControl(element)) controls.push(element);
        else info._delegate._text._render(element);
      }
      // What was just written (values swapped into member-info elements, a placeholder put back)
      // is the engine's own doing, and no page code ran meanwhile: its records are dropped here
      // rather than come back as thousands each observer walks. Nodes set aside while a value
      // shows stay tracked as they were when set aside.
      for (const observer of observers) observer._observer.takeRecords();
      // Last: filling a control runs the page's handlers (input and change events), whose own
      // changes the observers must see.
      for (const element of controls) info._delegate._prefill._render(element);
    },
  };
  return engine;
}
