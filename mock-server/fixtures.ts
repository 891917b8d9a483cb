/**
 * The one fixture set behind the mock server, for Node tests and static pages alike: plain
 * data, no logic. Passwords are in clear here on purpose (they are the demo's); the loader
 * hashes them. The demo site mirrors what `svc serve` seeds, so examples read the same.
 */
import type { ContentItemInput } from '../src/service/domain/content';
import type { NewPlan, NewSignupField, NewSite } from '../src/service/store/records';

/** Plans as the store keeps them, minus what the loader fills in. */
export type FixturePlan = NewPlan extends infer P ? (P extends unknown ? Omit<P, 'siteId' | 'createdAt'> & { key: string } : never) : never;
export type FixtureSignupField = Omit<NewSignupField, 'siteId'> & { key: string };

export interface FixtureMember {
  key: string;
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  status: 'approved' | 'pending' | 'blocked';
  /** Plan keys, each joined as an active membership. */
  plans: string[];
  /** Sign-up field values by field key. */
  signupValues?: Record<string, string | string[] | boolean>;
  metadata?: Record<string, unknown>;
}

/** A content space: the plans (by key) that open it, and its items, each with a key. */
export interface FixtureSpace {
  name: string;
  openedBy: string[];
  items: (ContentItemInput & { key: string })[];
}

export interface FixtureSite {
  site: Omit<NewSite, 'createdAt'>;
  plans: FixturePlan[];
  signupFields: FixtureSignupField[];
  members: FixtureMember[];
  library?: FixtureSpace[];
}

/** An instant tests may pin their clock to; fixture times are relative to the clock at load. */
export const FIXTURE_NOW = Date.parse('2026-11-01T12:00:00Z');

export const DEMO_FIXTURE: FixtureSite = {
  site: {
    name: 'Demo Academy', subdomain: 'demo', domain: 'demo.localhost', defaultCurrency: 'usd', locale: 'en', adminApiEnabled: true,
    memberMenu: true, afterRegistration: { action: 'plans' },
  },
  plans: [
    {
      key: 'community', publicId: 'community', name: 'Community', type: 'free', status: 'enabled', isPublic: true, colorCode: '#4f46e5',
      description: '<p>Join the community: the newsletter and the <strong>public</strong> library.</p>',
      expiration: { mode: 'none' }, welcomeUrl: 'https://demo.localhost/welcome',
    },
    {
      key: 'lifetime', publicId: 'lifetime', name: 'Lifetime', type: 'oneTimePayment', status: 'enabled', isPublic: true, colorCode: '#0891b2',
      expiration: { mode: 'none' }, billing: { price: 199, currency: 'usd' }, contentUrl: 'https://demo.localhost/library',
    },
    {
      key: 'course', publicId: 'course3', name: 'Course in three payments', type: 'multiPayment', status: 'enabled', isPublic: true, colorCode: '#16a34a',
      expiration: { mode: 'interval', count: 1, unit: 'year' },
      billing: { price: 60, currency: 'usd', interval: { count: 1, unit: 'month' }, paymentCountRequired: 3 },
    },
    {
      key: 'monthly', publicId: 'monthly', name: 'Monthly', type: 'subscription', status: 'enabled', isPublic: true, colorCode: '#ca8a04',
      billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } },
    },
    { key: 'founders', publicId: 'founders', name: 'Founders 2024', type: 'free', status: 'archived', isPublic: true, colorCode: '#dc2626', expiration: { mode: 'none' } },
  ],
  signupFields: [
    { key: 'company', type: 'text', label: 'Company', required: false, position: 1 },
    { key: 'bio', type: 'textarea', label: 'About you', required: false, position: 2 },
    {
      key: 'role', type: 'select', label: 'Role', required: true, position: 3,
      options: [{ label: 'Developer', value: 'developer' }, { label: 'Designer', value: 'designer' }, { label: 'Other', value: 'other' }],
    },
    {
      key: 'topics', type: 'multiple-select', label: 'Topics', required: false, position: 4,
      options: [{ label: 'Widgets', value: 'widgets' }, { label: 'APIs', value: 'apis' }, { label: 'Billing', value: 'billing' }],
    },
    { key: 'terms', type: 'checkbox', label: 'I accept the terms', required: true, position: 5 },
  ],
  members: [
    {
      key: 'ada', email: 'ada@demo.localhost', password: 'demo-password', firstName: 'Ada', lastName: 'Lovelace', status: 'approved',
      plans: ['community', 'monthly'],
      signupValues: { company: 'Analytical Engines', role: 'developer', topics: ['widgets', 'apis'], terms: true },
      metadata: { theme: 'dark' },
    },
    {
      key: 'grace', email: 'grace@demo.localhost', password: 'grace-password', firstName: 'Grace', lastName: 'Hopper', status: 'approved',
      plans: [], signupValues: { role: 'other', terms: true },
    },
    { key: 'mallory', email: 'mallory@demo.localhost', password: 'mallory-password', firstName: 'Mallory', status: 'blocked', plans: ['community'] },
  ],
  library: [
    {
      name: 'Getting started',
      openedBy: ['community', 'lifetime', 'course', 'monthly'],
      items: [
        { key: 'welcome', name: 'Welcome', type: 'article', body: '<h3>Welcome</h3><p>Start with the <strong>tour</strong>.</p>' },
        { key: 'tour', name: 'Tour of the library', type: 'video', url: 'https://demo.localhost/library/tour.mp4' },
        { key: 'starterKit', name: 'Starter kit', type: 'file', url: '/examples/library/starter-kit.pdf' },
      ],
    },
    {
      name: 'Masterclasses',
      openedBy: ['lifetime', 'course', 'monthly'],
      items: [
        { key: 'interview', name: 'Interview: ten years in', type: 'audio', url: '/examples/library/chime.wav' },
        { key: 'reading', name: 'Further reading', type: 'link', url: 'https://demo.localhost/reading' },
      ],
    },
  ],
};

/** A second site, so tests can show one site's sessions and members never reach another's. */
export const OTHER_FIXTURE: FixtureSite = {
  site: { name: 'Other Shop', subdomain: 'other', domain: 'other.example', defaultCurrency: 'eur', locale: 'de', adminApiEnabled: true },
  plans: [
    { key: 'basic', publicId: 'basic', name: 'Basic', type: 'free', status: 'enabled', isPublic: true, colorCode: '#475569', expiration: { mode: 'none' } },
  ],
  signupFields: [],
  members: [{ key: 'otto', email: 'otto@other.example', password: 'otto-password', firstName: 'Otto', status: 'approved', plans: ['basic'] }],
};

export const FIXTURES: readonly FixtureSite[] = [DEMO_FIXTURE, OTHER_FIXTURE];
