import type { ServiceEventMap } from './public-types';

export type EventName = keyof ServiceEventMap;
export type EventDetail<K extends EventName> = ServiceEventMap[K] extends CustomEvent<infer D> ? D : never;

/** The one way the widget tells the page something: a `CustomEvent` on `document` (spec 6.1). */
export function dispatch<K extends EventName>(doc: Document, name: K, detail: EventDetail<K>): void {
  doc.dispatchEvent(new CustomEvent(name, { detail }));
}
