import type { ElementObserverDelegate } from './element-observer';

/** A delegate of the engine: besides following elements, it redraws one when the member changes. */
export interface MemberDelegate extends ElementObserverDelegate {
  _render(element: Element): void;
}
