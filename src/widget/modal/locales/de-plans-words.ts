import type { PlansWords } from '../messages';

/** The plans screen's words in German: a chunk of their own, downloaded with it (../screen-chunks.ts). */
export const dePlans: PlansWords = {
  noPlans: 'Diese Website bietet noch keine Tarife an.',
  yourPlan: 'Ihr Tarif',
  recommended: 'Empfohlen',
  billing: 'Abrechnungszeitraum',
  monthly: 'Monatlich',
  yearly: 'Jährlich',
};
