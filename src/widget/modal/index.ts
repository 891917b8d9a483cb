/**
 * widgets-modal.js: the screens, a bundle of their own that widgets.js loads from its origin
 * the first time one opens. It only leaves its entry point where the runtime looks for it.
 */
import { MODAL_ENTRY } from './host';
import { openModal } from './open';

(window as unknown as Record<symbol, unknown>)[MODAL_ENTRY] = openModal;
