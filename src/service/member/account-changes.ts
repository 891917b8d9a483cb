/**
 * What a member may change of their own account (the widget's account edit screen): names and
 * custom sign-up field values, checked with the rules of sign-up. Every problem is collected,
 * so one 400 names every bad field; nothing is stored unless all of it is valid.
 */
import type { MemberPatch, SignupFieldRecord } from '../store/records';
import { MemberError } from './errors';
import { bad, checkField, checkName, type Problems } from './signup';
import { isJsonObject } from '../domain/validation';

const EDITABLE = new Set(['firstName', 'lastName', 'customFields']);

/** PATCH /me: keys left out stay as they are; an empty name or optional field is cleared. */
export function validateAccountEdit(body: Record<string, unknown>, fields: readonly SignupFieldRecord[]): MemberPatch {
  const problems: Problems = [];
  const patch: MemberPatch = {};
  for (const key of Object.keys(body)) {
    if (!EDITABLE.has(key)) {
      const where = key === 'email' ? 'PUT /me/email' : key === 'password' ? 'PUT /me/password' : undefined;
      bad(problems, key, where ? `Change it with ${where}` : 'Cannot be changed');
    }
  }
  for (const key of ['firstName', 'lastName'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    const name = checkName(value, key, problems);
    if (name !== undefined) patch[key] = name || null;
  }
  const given = body.customFields;
  if (given !== undefined && !isJsonObject(given)) bad(problems, 'customFields', 'Must be an object keyed by field id');
  else if (given !== undefined) {
    const byId = new Map(fields.map((f) => [String(f.id), f]));
    patch.signupValues = [];
    for (const [key, value] of Object.entries(given)) {
      const field = byId.get(key);
      if (!field) {
        bad(problems, `customFields.${key}`, 'This site has no sign-up field with that id');
        continue;
      }
      const before = problems.length;
      const checked = checkField(field, value, `customFields.${key}`, problems);
      // An optional field given empty ("" or []) is cleared; a required one was reported above.
      if (problems.length === before) patch.signupValues.push({ fieldId: field.id, value: checked ?? null });
    }
  }
  if (problems.length > 0) throw MemberError.fields(problems);
  return patch;
}
