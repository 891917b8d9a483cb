import type { Messages } from '../messages';
import { deAccount } from './de-account-words';
import { deBase } from './de-base';
import { deCard } from './de-card-words';
import { deChangePlan } from './de-change-plan-words';
import { deContent } from './de-content-words';
import { dePlans } from './de-plans-words';
import { deSignIn } from './de-sign-in-words';

/**
 * Every word of the screens in German, for tests and tools (./index.ts). The bundle holds
 * de-base.ts and downloads de-account-words.ts, de-content-words.ts, de-sign-in-words.ts, de-plans-words.ts and de-card-words.ts with their screens (decision 0034).
 */
export const de: Messages = { ...deBase, ...deAccount, ...deContent, ...deSignIn, ...dePlans, ...deCard, ...deChangePlan, errors: { ...deBase.errors, ...deSignIn.errors, ...deAccount.errors } };
