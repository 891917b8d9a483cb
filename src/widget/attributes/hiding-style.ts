import { constructedStyle } from '../constructed-style';
import { HIDDEN } from './names';

/**
 * The one style the widget adds to the page: what it hides stays hidden whatever the page's
 * own styles say, inline ones included (a constructed sheet, which a Content-Security-Policy
 * does not refuse). Answers a function that takes the style away again.
 */
export function addHidingStyle(doc: Document): () => void {
  const style = constructedStyle(doc);
  style._set(`[${HIDDEN}]{display:none!important}`);
  return style._remove;
}
