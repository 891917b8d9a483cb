import type { Messages } from '../messages';
import { enAccount } from './en-account-words';
import { enBase } from './en-base';

/**
 * Every word of the screens in English, for tests and tools (./index.ts). The bundle holds
 * en-base.ts and downloads en-account-words.ts with the account's screens (decision 0034).
 */
export const en: Messages = { ...enBase, ...enAccount };
