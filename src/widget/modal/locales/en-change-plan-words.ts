import type { ChangePlanWords } from '../messages';

/** Changing plans' words in English: a chunk of their own, downloaded with its screen (../screens/plan-signup.ts). */
export const enChangePlan: ChangePlanWords = {
  changePlan: 'Change plan',
  changeFrom: (from, to) => `From ${from} to ${to}.`,
  credit: (amount) => `Less ${amount} for the unused part of your current period.`,
  changesOn: (date) => `Nothing is due now: the change takes effect on ${date}, when your current period ends.`,
  planNow: (plan) => `Your plan is now ${plan}.`,
  planLater: (plan, date) => `Your plan changes to ${plan} on ${date}.`,
};
