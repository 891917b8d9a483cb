/**
 * widgets-modal.js: the screens in English (for any locale without words of its own), a bundle
 * of their own that widgets.js loads from its origin the first time one opens. Another
 * language's screens are the same code with its words (index.de.ts). It only leaves its entry
 * point where the runtime looks for it.
 */
import { MODAL_ENTRY } from './host';
import { enBase } from './locales/en-base';
import { modalEntry } from './open';

// The account's words, and protected content's, come with their screens.
(window as unknown as Record<symbol, unknown>)[MODAL_ENTRY] = modalEntry(enBase, {
  account: () => import('./locales/en-account-words').then((m) => m.enAccount),
  content: () => import('./locales/en-content-words').then((m) => m.enContent),
  signIn: () => import('./locales/en-sign-in-words').then((m) => m.enSignIn),
  plans: () => import('./locales/en-plans-words').then((m) => m.enPlans),
  card: () => import('./locales/en-card-words').then((m) => m.enCard),
  changePlan: () => import('./locales/en-change-plan-words').then((m) => m.enChangePlan),
});

// The helpers the screens' chunks share: in this file, not a chunk of their own (./base-helpers.ts).
export * from './base-helpers';
