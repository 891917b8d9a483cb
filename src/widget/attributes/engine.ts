import type { CheckboxLabels } from '../checkbox-labels';
import { ElementObserver } from './element-observer';
import { addHidingStyle } from './hiding-style';
import type { MemberDelegate } from './member-delegate';
import type { MemberSource } from './member-source';
import { MemberText } from './member-text';
import { MemberValues } from './member-values';
import { HIDE, MEMBER_INFO, SHOW } from './names';
import { Prefill } from './prefill';
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
  const values = new MemberValues(state, labels);
  const root = doc.documentElement;
  const observe = (selector: string, attributes: string[], delegate: MemberDelegate) =>
    new ElementObserver(root, selector, attributes, delegate);
  const info = `[${MEMBER_INFO}]`;
  const observers = [
    observe(`[${SHOW}],[${HIDE}]`, [SHOW, HIDE], new Visibility(state)),
    observe(info, [MEMBER_INFO], new MemberText(values)),
    observe(info, [MEMBER_INFO], new Prefill(values)),
  ];
  let removeStyle: (() => void) | undefined;
  const engine: AttributeEngine = {
    _start() {
      removeStyle ??= addHidingStyle(doc);
      for (const observer of observers) observer._start();
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
      for (const observer of observers) {
        // A change the page made in this same task is taken in first: draw the page as it is.
        observer._flush();
        for (const element of observer._elements) observer._delegate._render(element);
      }
    },
  };
  return engine;
}
