/**
 * Tracks the elements under a root that match a selector and a test, as the page changes:
 * the attribute engine's one observer, with what to do left to a delegate (after Stimulus's
 * ElementObserver). A change costs in proportion to the nodes it touched: added and removed
 * subtrees are searched, the rest of the document never is.
 */
export interface ElementObserverDelegate {
  /** A further test than the selector: whether this element is one to track. */
  _matchElement(element: Element): boolean;
  _elementMatched(element: Element): void;
  /** The element went away, lost its attribute or stopped matching; also on `_stop()`. */
  _elementUnmatched(element: Element): void;
  /** An observed attribute of a tracked element changed, and the element still matches. */
  _elementAttributeChanged(element: Element): void;
}

export class ElementObserver<D extends ElementObserverDelegate = ElementObserverDelegate> {
  readonly _elements = new Set<Element>();
  readonly _observer: MutationObserver;
  _started = false;

  constructor(
    readonly _root: Element,
    /** Selects the candidates; the delegate's `_matchElement` has the last word. */
    readonly _selector: string,
    readonly _attributes: string[],
    readonly _delegate: D,
  ) {
    this._observer = new MutationObserver((records) => this._process(records));
  }

  _start(): void {
    if (this._started) return;
    this._started = true;
    this._observer.observe(this._root, { childList: true, subtree: true, attributes: true, attributeFilter: this._attributes });
    this._refresh();
  }

  /** Takes in the changes not yet delivered to the callback, so `_elements` is the page as it is. */
  _flush(): void {
    if (this._started) this._process(this._observer.takeRecords());
  }

  /** Takes in what changed since the last callback, then checks every element once more. */
  _refresh(): void {
    if (!this._started) return;
    this._flush();
    for (const element of this._elements) if (!this._active(element)) this._remove(element);
    this._each(this._root, this._add);
  }

  _stop(): void {
    if (!this._started) return;
    this._started = false;
    this._observer.disconnect();
    for (const element of this._elements) this._remove(element);
  }

  _process(records: MutationRecord[]): void {
    for (const record of records) {
      if (record.type === 'attributes') this._attributeChanged(record.target as Element);
      else {
        for (const node of record.removedNodes) this._each(node, this._remove);
        for (const node of record.addedNodes) this._each(node, this._add);
      }
    }
  }

  _attributeChanged(element: Element): void {
    if (!this._elements.has(element)) this._add(element);
    else if (this._active(element)) this._delegate._elementAttributeChanged(element);
    else this._remove(element);
  }

  /** Calls `visit` on every candidate in the tree of `node`, itself included. */
  _each(node: Node, visit: (element: Element) => void): void {
    if (node.nodeType !== 1) return;
    const element = node as Element;
    if (element.matches(this._selector)) visit.call(this, element);
    for (const candidate of element.querySelectorAll(this._selector)) visit.call(this, candidate);
  }

  _active(element: Element): boolean {
    return element.isConnected && element.matches(this._selector) && this._delegate._matchElement(element);
  }

  _add(element: Element): void {
    if (this._elements.has(element) || !this._active(element)) return;
    this._elements.add(element);
    this._delegate._elementMatched(element);
  }

  _remove(element: Element): void {
    if (this._elements.delete(element)) this._delegate._elementUnmatched(element);
  }
}
