import type { ChangePlanWords } from '../messages';

/** Changing plans' words in German: a chunk of their own, downloaded with its screen (../screens/plan-signup.ts). */
export const deChangePlan: ChangePlanWords = {
  changePlan: 'Tarif wechseln',
  changeFrom: (from, to) => `Von ${from} zu ${to}.`,
  credit: (amount) => `Abzüglich ${amount} für den ungenutzten Teil Ihres laufenden Zeitraums.`,
  changesOn: (date) => `Jetzt ist nichts fällig: Der Wechsel gilt ab ${date}, wenn Ihr laufender Zeitraum endet.`,
  planNow: (plan) => `Ihr Tarif ist jetzt ${plan}.`,
  planLater: (plan, date) => `Ihr Tarif wechselt am ${date} zu ${plan}.`,
};
