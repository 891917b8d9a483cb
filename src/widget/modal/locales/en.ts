import type { Messages } from '../messages';
import { enAccount } from './en-account-words';
import { enBase } from './en-base';
import { enCard } from './en-card-words';
import { enChangePlan } from './en-change-plan-words';
import { enContent } from './en-content-words';
import { enPlans } from './en-plans-words';
import { enSignIn } from './en-sign-in-words';

/**
 * Every word of the screens in English, for tests and tools (./index.ts). The bundle holds
 * en-base.ts and downloads en-account-words.ts, en-content-words.ts, en-sign-in-words.ts, en-plans-words.ts and en-card-words.ts with their screens (decision 0034).
 */
export const en: Messages = { ...enBase, ...enAccount, ...enContent, ...enSignIn, ...enPlans, ...enCard, ...enChangePlan, errors: { ...enBase.errors, ...enSignIn.errors, ...enAccount.errors } };
