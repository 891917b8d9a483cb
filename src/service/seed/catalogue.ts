/**
 * What the demo site offers: plans of all four types (and an archived one), a content library,
 * and custom sign-up fields of all five types.
 */
import type { ContentItemInput } from '../domain/content';
import type { PlanDefinition } from '../domain/plan-schema';
import type { NewSignupField } from '../store/records';

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

const PAID_PLANS = ['Lifetime', 'Course in three payments', 'Monthly', 'Yearly', 'Team (invite only)'];
/**
 * The library's files are served with the examples (examples/library/), as paths on the site, so
 * downloads and players work with `npm start`: two one-page PDFs and one short chime for every
 * audio item. The videos have no file (too large for the repository): their links answer 404.
 */
const FILES = '/examples/library';

/** The demo library: each space with the plans (by name) that open it. */
export const DEMO_LIBRARY: { space: string; openedBy: string[]; items: ContentItemInput[] }[] = [
  {
    space: 'Getting started',
    openedBy: ['Community', 'Seven-day pass', 'Workshop 2027', 'Founders 2024', ...PAID_PLANS],
    items: [
      { name: 'Welcome', type: 'article', body: '<h3>Welcome to Demo Academy</h3><p>Start with the <strong>tour</strong>, then pick a masterclass.</p>' },
      { name: 'Tour of the library', type: 'video', url: `${FILES}/tour.mp4` },
      { name: 'House rules', type: 'article', body: '<ul><li>Be kind.</li><li>Share what you learn.</li></ul>' },
      { name: 'Starter kit', type: 'file', url: `${FILES}/starter-kit.pdf` },
    ],
  },
  {
    space: 'Masterclasses',
    openedBy: PAID_PLANS,
    items: [
      { name: 'Pricing your work', type: 'video', url: `${FILES}/pricing.mp4` },
      { name: 'Writing that sells', type: 'video', url: `${FILES}/writing.mp4` },
      { name: 'Interview: ten years in', type: 'audio', url: `${FILES}/chime.wav` },
      { name: 'Workbook', type: 'file', url: `${FILES}/workbook.pdf` },
      { name: 'Further reading', type: 'link', url: 'https://en.wikipedia.org/wiki/Pricing' },
    ],
  },
  {
    space: 'Podcast',
    openedBy: ['Community', ...PAID_PLANS],
    items: [
      { name: 'Episode 1: Beginnings', type: 'audio', url: `${FILES}/chime.wav` },
      { name: 'Episode 2: Money', type: 'audio', url: `${FILES}/chime.wav` },
      { name: 'Episode 3: Time', type: 'audio', url: `${FILES}/chime.wav` },
      { name: 'Show notes', type: 'article', body: '<p>Links and books from every episode.</p>' },
    ],
  },
];

/** A sign-up field of the demo site (its position is its index); `answers` are what members type into a text field. */
export type DemoSignupField = Omit<NewSignupField, 'siteId' | 'position'> & { answers?: string[] };

export const DEMO_SIGNUP_FIELDS: DemoSignupField[] = [
  {
    type: 'text',
    label: 'Company or school',
    required: false,
    answers: ['Acme Corp', 'Globex', 'Initech', 'Université de Lyon', 'Stark Industries', 'Freelance', 'Umbrella GmbH', 'Self-employed'],
  },
  {
    type: 'select',
    label: 'How did you hear about us?',
    required: true,
    options: [
      { label: 'A friend or colleague', value: 'referral' },
      { label: 'Search engine', value: 'search' },
      { label: 'Social media', value: 'social' },
      { label: 'Podcast', value: 'podcast' },
      { label: 'Other', value: 'other' },
    ],
  },
  {
    type: 'multiple-select',
    label: 'Topics you are interested in',
    required: false,
    options: [
      { label: 'Pricing', value: 'pricing' },
      { label: 'Writing', value: 'writing' },
      { label: 'Marketing', value: 'marketing' },
      { label: 'Productivity', value: 'productivity' },
      { label: 'Design', value: 'design' },
    ],
  },
  {
    type: 'textarea',
    label: 'What do you hope to learn?',
    required: false,
    answers: [
      'How to price my first product.',
      'Writing better newsletters.\nAnd finding the time for it.',
      'Everything about running a small studio!',
      'Ways to grow an audience without social media.',
      "I'm just curious — a friend recommended you.",
    ],
  },
  { type: 'checkbox', label: 'I accept the house rules', required: true },
  { type: 'checkbox', label: 'Send me the monthly newsletter', required: false },
];

export const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Frances', 'Dennis', 'Radia', 'Linus', 'Hedy', 'Tim', 'Katherine', 'John', 'Joan', 'Niklaus', 'Sophie', 'Guido', 'Zoë', 'José', 'Chloé', 'Jürgen', 'Aiko', 'Mateo'];
export const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Allen', 'Ritchie', 'Perlman', 'Torvalds', 'Lamarr', 'Berners-Lee', 'Johnson', 'McCarthy', 'Clarke', 'Wirth', 'Wilson', 'van Rossum', "O'Neil", 'García', 'Dubois', 'Müller', 'Tanaka', 'Silva'];
