/** widgets-modal.de.js: the screens in German, for sites whose locale is `de` (see index.ts). */
import { modalEntryKey } from './host';
import { de } from './locales/de';
import { modalEntry } from './open';

(window as unknown as Record<symbol, unknown>)[modalEntryKey('.de')] = modalEntry(de);
