import type { ConversionDetail } from './public-types';
import { dispatch } from './dispatch';
import { clone } from './json';

/**
 * Tells the page a plan sign-up succeeded (`Service.conversion`, spec 6.1), for every plan
 * type, free included. Called by the plan sign-up flow once the service has confirmed it.
 */
export function dispatchConversion(doc: Document, detail: ConversionDetail): void {
  dispatch(doc, 'Service.conversion', clone(detail));
}
