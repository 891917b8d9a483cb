import type { Messages } from '../messages';
import { enAccount } from './en-account-words';
import { enBase } from './en-base';
import { enContent } from './en-content-words';

/**
 * Every word of the screens in English, for tests and tools (./index.ts). The bundle holds
 * en-base.ts and downloads en-account-words.ts and en-content-words.ts with their screens (decision 0034).
 */
export const en: Messages = { ...enBase, ...enAccount, ...enContent };
