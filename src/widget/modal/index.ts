/**
 * widgets-modal.js: the screens in English (for any locale without words of its own), a bundle
 * of their own that widgets.js loads from its origin the first time one opens. Another
 * language's screens are the same code with its words (index.de.ts). It only leaves its entry
 * point where the runtime looks for it.
 */
import { MODAL_ENTRY } from './host';
import { en } from './locales/en';
import { modalEntry } from './open';

(window as unknown as Record<symbol, unknown>)[MODAL_ENTRY] = modalEntry(en);
