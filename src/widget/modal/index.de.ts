/** widgets-modal.de.js: the screens in German, for sites whose locale is `de` (see index.ts). */
import { modalEntryKey } from './host';
import { deBase } from './locales/de-base';
import { modalEntry } from './open';

(window as unknown as Record<symbol, unknown>)[modalEntryKey('.de')] = modalEntry(deBase, {
  account: () => import('./locales/de-account-words').then((m) => m.deAccount),
  content: () => import('./locales/de-content-words').then((m) => m.deContent),
  signIn: () => import('./locales/de-sign-in-words').then((m) => m.deSignIn),
  plans: () => import('./locales/de-plans-words').then((m) => m.dePlans),
  card: () => import('./locales/de-card-words').then((m) => m.deCard),
  changePlan: () => import('./locales/de-change-plan-words').then((m) => m.deChangePlan),
});

// The helpers the screens' chunks share: in this file, not a chunk of their own (./base-helpers.ts).
export * from './base-helpers';
