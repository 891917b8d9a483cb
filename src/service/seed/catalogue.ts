/** What the demo site offers: plans of all four types (and an archived one) and a content library. */
import type { ContentNodeType } from '../../contract/admin';
import type { PlanDefinition } from '../domain/plan-schema';

export const DEMO_PLANS: PlanDefinition[] = [
  {
    name: 'Community',
    type: 'free',
    description: '<p>Join the community: the newsletter and the <strong>public</strong> library.</p>',
    expiration: { mode: 'none' },
    welcomeUrl: 'https://demo.localhost/welcome',
  },
  { name: 'Seven-day pass', type: 'free', expiration: { mode: 'interval', count: 7, unit: 'day' } },
  {
    name: 'Lifetime',
    type: 'oneTimePayment',
    description: '<p>Pay once, keep <em>everything</em>.</p>',
    expiration: { mode: 'none' },
    billing: { price: 199, currency: 'usd', taxPercentage: 20, taxDescription: '<p>VAT at 20%</p>' },
    contentUrl: 'https://demo.localhost/library',
  },
  {
    name: 'Workshop 2027',
    type: 'oneTimePayment',
    expiration: { mode: 'specificTime', expiresAt: '2027-12-31T23:59:59Z' },
    billing: { price: 49, currency: 'usd' },
  },
  {
    name: 'Course in three payments',
    type: 'multiPayment',
    expiration: { mode: 'interval', count: 1, unit: 'year' },
    billing: { price: 60, currency: 'usd', interval: { count: 1, unit: 'month' }, paymentCountRequired: 3, signupFee: 10 },
  },
  {
    name: 'Monthly',
    type: 'subscription',
    description: '<p>Everything, billed on the first of the month.</p>',
    billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' }, billingDate: { day: 1 }, trialPeriodDays: 14 },
  },
  {
    name: 'Yearly',
    type: 'subscription',
    billing: { price: 120, currency: 'usd', interval: { count: 1, unit: 'year' }, taxPercentage: 8.5 },
  },
  { name: 'Team (invite only)', type: 'subscription', isPublic: false, billing: { price: 300, currency: 'usd', interval: { count: 3, unit: 'month' } } },
  { name: 'Founders 2024', type: 'free', status: 'archived', expiration: { mode: 'none' } },
  { name: 'Beta testers', type: 'free', status: 'deleted', expiration: { mode: 'none' } },
];

/** How often a new membership lands on each plan, in DEMO_PLANS order. */
export const DEMO_PLAN_WEIGHTS = [40, 6, 8, 4, 6, 22, 10, 1, 2, 1];

export const DEMO_LIBRARY: { space: string; nodes: [string, ContentNodeType][] }[] = [
  {
    space: 'Getting started',
    nodes: [
      ['Welcome', 'article'],
      ['Tour of the library', 'video'],
      ['House rules', 'article'],
      ['Starter kit', 'file'],
    ],
  },
  {
    space: 'Masterclasses',
    nodes: [
      ['Pricing your work', 'video'],
      ['Writing that sells', 'video'],
      ['Interview: ten years in', 'audio'],
      ['Workbook', 'file'],
      ['Further reading', 'link'],
    ],
  },
  {
    space: 'Podcast',
    nodes: [
      ['Episode 1: Beginnings', 'audio'],
      ['Episode 2: Money', 'audio'],
      ['Episode 3: Time', 'audio'],
      ['Show notes', 'article'],
    ],
  },
];

export const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Frances', 'Dennis', 'Radia', 'Linus', 'Hedy', 'Tim', 'Katherine', 'John', 'Joan', 'Niklaus', 'Sophie', 'Guido', 'Zoë', 'José', 'Chloé', 'Jürgen', 'Aiko', 'Mateo'];
export const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Allen', 'Ritchie', 'Perlman', 'Torvalds', 'Lamarr', 'Berners-Lee', 'Johnson', 'McCarthy', 'Clarke', 'Wirth', 'Wilson', 'van Rossum', "O'Neil", 'García', 'Dubois', 'Müller', 'Tanaka', 'Silva'];
