/**
 * Checks a sign-up body against the site's custom fields (spec 2.7): every problem is
 * collected, so one 400 names every bad field. Nothing is stored unless all of it is valid.
 */
import type { SignupFieldValue } from '../../contract/member';
import type { ErrorItem } from '../http/http-error';
import type { SignupFieldRecord, SignupValueRecord } from '../store/records';
import type { MemberApiErrorCode } from '../../contract/member';
import { emailAddress, isJsonObject, nameProblem, textProblem } from '../domain/validation';
import { MemberError } from './errors';

export interface ValidSignUp {
  email: string;
  /** Absent: an account without a password, which signs in with mailed codes (signup-route.ts). */
  password?: string;
  firstName?: string;
  lastName?: string;
  signupValues: SignupValueRecord[];
}

export const PASSWORD_MIN = 8;
/** Long enough for any passphrase, short enough that hashing it cannot be made expensive. */
export const PASSWORD_MAX = 256;
export const NAME_MAX = 100;
const TEXT_MAX = { text: 500, textarea: 5000 } as const;

export type Problems = ErrorItem<MemberApiErrorCode>[];
export const bad = (problems: Problems, path: string, message: string) => problems.push({ path, code: 'invalidField', message });

export function readEmail(value: unknown, problems: Problems): string {
  const email = typeof value === 'string' ? emailAddress(value) : undefined;
  if (email === undefined) {
    // The one check says no; a control character is worth naming as such.
    const unfit = typeof value === 'string' ? textProblem(value) : undefined;
    bad(problems, 'email', unfit ? `An e-mail address ${unfit}` : 'Enter an e-mail address such as name@example.com');
    return '';
  }
  return email;
}

export function readPassword(value: unknown, problems: Problems, forSignUp: boolean): string {
  if (typeof value !== 'string' || value.length === 0) {
    bad(problems, 'password', 'Enter a password');
    return '';
  }
  if (value.length > PASSWORD_MAX) bad(problems, 'password', `A password has at most ${PASSWORD_MAX} characters`);
  else if (forSignUp && value.length < PASSWORD_MIN) bad(problems, 'password', `A password has at least ${PASSWORD_MIN} characters`);
  return value;
}

/**
 * A first or last name as given (sign-up and PATCH /me): text of at most NAME_MAX characters
 * once trimmed, with no control character (tab and line breaks included) anywhere in what was
 * sent. The trimmed name ('' when blank), or undefined after reporting the problem.
 */
export function checkName(value: unknown, key: 'firstName' | 'lastName', problems: Problems): string | undefined {
  if (typeof value !== 'string') return void bad(problems, key, 'Must be text');
  const trimmed = value.trim();
  if (trimmed.length > NAME_MAX) return void bad(problems, key, `At most ${NAME_MAX} characters`);
  const unfit = nameProblem(value);
  if (unfit) return void bad(problems, key, `A name ${unfit}`);
  return trimmed;
}

function readName(body: Record<string, unknown>, key: 'firstName' | 'lastName', problems: Problems): string | undefined {
  const value = body[key];
  return value === undefined ? undefined : checkName(value, key, problems) || undefined;
}

export function validateSignUp(body: Record<string, unknown>, fields: readonly SignupFieldRecord[]): ValidSignUp {
  const problems: Problems = [];
  const email = readEmail(body.email, problems);
  // No `password` key at all asks for an account without one; a password given is checked.
  const password = body.password === undefined ? undefined : readPassword(body.password, problems, true);
  const firstName = readName(body, 'firstName', problems);
  const lastName = readName(body, 'lastName', problems);
  const signupValues = readCustomFields(body.customFields, fields, problems);
  if (problems.length > 0) throw MemberError.fields(problems);
  return { email, ...(password !== undefined && { password }), ...(firstName && { firstName }), ...(lastName && { lastName }), signupValues };
}

function readCustomFields(raw: unknown, fields: readonly SignupFieldRecord[], problems: Problems): SignupValueRecord[] {
  if (raw !== undefined && !isJsonObject(raw)) {
    bad(problems, 'customFields', 'Must be an object keyed by field id');
    raw = {};
  }
  const given = (raw ?? {}) as Record<string, unknown>;
  const known = new Set(fields.map((f) => String(f.id)));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) bad(problems, `customFields.${key}`, 'This site has no sign-up field with that id');
  }
  const values: SignupValueRecord[] = [];
  for (const field of fields) {
    const value = checkField(field, given[String(field.id)], `customFields.${field.id}`, problems);
    if (value !== undefined) values.push({ fieldId: field.id, value });
  }
  return values;
}

export function checkField(field: SignupFieldRecord, value: unknown, path: string, problems: Problems): SignupFieldValue | undefined {
  const missing = () => void (field.required && bad(problems, path, `${field.label} is required`));
  const options = new Set((field.options ?? []).map((o) => o.value));
  switch (field.type) {
    case 'text':
    case 'textarea': {
      if (value === undefined || value === '') return missing();
      if (typeof value !== 'string') return void bad(problems, path, `${field.label} must be text`);
      if (value.length > TEXT_MAX[field.type]) return void bad(problems, path, `${field.label} has at most ${TEXT_MAX[field.type]} characters`);
      const unfit = textProblem(value, { multiline: field.type === 'textarea' });
      if (unfit) return void bad(problems, path, `${field.label} ${unfit}`);
      if (value.trim() === '') return missing();
      return value;
    }
    case 'select': {
      if (value === undefined || value === '') return missing();
      if (typeof value !== 'string' || !options.has(value)) return void bad(problems, path, `${field.label} must be one of its options`);
      return value;
    }
    case 'multiple-select': {
      if (value === undefined) return missing();
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !options.has(v))) {
        return void bad(problems, path, `${field.label} must be a list of its options`);
      }
      if (value.length === 0) return missing();
      return [...new Set(value as string[])];
    }
    case 'checkbox': {
      if (value === undefined) return missing();
      if (typeof value !== 'boolean') return void bad(problems, path, `${field.label} must be true or false`);
      // A required checkbox is a consent box: it has to be ticked.
      if (field.required && !value) return void bad(problems, path, `${field.label} must be ticked`);
      return value;
    }
  }
}
