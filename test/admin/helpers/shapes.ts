/**
 * The field tables of spec section 2 as shapes, and the check that a body has exactly those
 * fields with those types.
 */
import { expect } from 'vitest';
import { DATE_TIME } from './date-times';

/** A field type of the spec's tables; `?` marks an optional field. */
export type FieldType = 'integer' | 'number' | 'string' | 'boolean' | 'date-time' | 'object' | { [field: string]: FieldType } | `${string}?`;

/**
 * The value has exactly the fields `shape` lists (optional ones may be missing, never null) with
 * the listed types; nested objects are checked the same way.
 */
export function expectShape(value: unknown, shape: Record<string, FieldType>, at = '$'): void {
  expect(value, at).toEqual(expect.any(Object));
  const record = value as Record<string, unknown>;
  const allowed = Object.keys(shape);
  for (const field of Object.keys(record)) expect(allowed, `${at} has unexpected field ${field}`).toContain(field);
  for (const [field, type] of Object.entries(shape)) {
    const optional = typeof type === 'string' && type.endsWith('?');
    const t = optional ? (type as string).slice(0, -1) : type;
    const v = record[field];
    if (v === undefined) {
      expect(optional, `${at}.${field} is required`).toBe(true);
      continue;
    }
    const where = `${at}.${field}`;
    if (typeof t === 'object') expectShape(v, t, where);
    else if (t === 'integer') expect(Number.isInteger(v), `${where} = ${JSON.stringify(v)} is an integer`).toBe(true);
    else if (t === 'number') expect(typeof v === 'number' && Number.isFinite(v), `${where} is a number`).toBe(true);
    else if (t === 'date-time') {
      expect(typeof v === 'string' && DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)), `${where} = ${JSON.stringify(v)} is a date-time`).toBe(true);
    } else if (t === 'object') expect(v, where).toEqual(expect.any(Object));
    else expect(typeof v, where).toBe(t);
  }
}

export const SITE_SHAPE = {
  id: 'integer',
  name: 'string',
  subdomain: 'string',
  domain: 'string',
  defaultCurrency: 'string',
  locale: 'string',
  metrics: { activeMemberCount: 'integer', freeMemberCount: 'integer', paidMemberCount: 'integer' },
  createdAt: 'date-time',
} as const;

const PLAN_COMMON = {
  id: 'integer',
  publicId: 'string',
  name: 'string',
  description: 'string?',
  status: 'string',
  isPublic: 'boolean',
  activeMemberCount: 'integer',
  colorCode: 'string',
  contentUrl: 'string?',
  welcomeUrl: 'string?',
  createdAt: 'date-time',
  type: 'string',
} as const;

const INTERVAL = { count: 'integer', unit: 'string' } as const;
const TAX = { taxPercentage: 'number?', taxDescription: 'string?' } as const;

/** Plan fields by type, as the "Extra fields by type" and billing tables of 2.2 arrange them. */
export const PLAN_SHAPES: Record<string, Record<string, FieldType>> = {
  free: { ...PLAN_COMMON, expiration: 'object' },
  oneTimePayment: { ...PLAN_COMMON, expiration: 'object', billing: { price: 'number', currency: 'string', ...TAX } },
  multiPayment: {
    ...PLAN_COMMON,
    expiration: 'object',
    billing: {
      price: 'number',
      currency: 'string',
      interval: INTERVAL,
      paymentCountRequired: 'integer',
      trialPeriodDays: 'integer?',
      signupFee: 'number?',
      ...TAX,
    },
  },
  subscription: {
    ...PLAN_COMMON,
    billing: {
      price: 'number',
      currency: 'string',
      interval: INTERVAL,
      billingDate: 'object?',
      trialPeriodDays: 'integer?',
      signupFee: 'number?',
      ...TAX,
    },
  },
};

export const EXPIRATION_SHAPES: Record<string, Record<string, FieldType>> = {
  none: { mode: 'string' },
  interval: { mode: 'string', count: 'integer', unit: 'string' },
  specificTime: { mode: 'string', expiresAt: 'date-time' },
};

export const MEMBERSHIP_SHAPE = {
  id: 'integer',
  memberId: 'integer',
  planId: 'integer',
  planPublicId: 'string',
  status: 'string',
  createdAt: 'date-time',
  type: 'string',
  expiresOn: 'date-time?',
  cancelsOn: 'date-time?',
  billing: 'object?',
  nextPlanId: 'integer?',
} as const;

export const MEMBER_SHAPE = {
  id: 'integer',
  email: 'string',
  firstName: 'string?',
  lastName: 'string?',
  status: 'string',
  createdAt: 'date-time',
} as const;

export const MEMBER_EVENT_SHAPE = {
  id: 'integer',
  memberId: 'integer',
  eventType: 'string',
  details: 'object',
  createdAt: 'date-time',
} as const;

export const CONTENT_VIEW_SHAPE = {
  id: 'integer',
  memberId: 'integer',
  node: { id: 'integer', name: 'string', type: 'string' },
  spaceNode: { id: 'integer', name: 'string' },
  viewedAt: 'date-time',
} as const;
