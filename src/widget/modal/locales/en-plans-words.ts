import type { PlansWords } from '../messages';

/** The plans screen's words in English: a chunk of their own, downloaded with it (../screen-chunks.ts). */
export const enPlans: PlansWords = {
  noPlans: 'This site offers no plans yet.',
  yourPlan: 'Your plan',
  recommended: 'Recommended',
  billing: 'Billing period',
  monthly: 'Monthly',
  yearly: 'Yearly',
};
