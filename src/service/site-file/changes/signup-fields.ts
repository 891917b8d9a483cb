/** Sign-up fields, matched by key; their order in the file is the form's. A field's type never changes; one out of the file is archived with members' answers kept. */
import type { SignupFieldRecord } from '../../store/records';
import type { SiteChangeSet } from '../../store/site-definition';
import type { SiteFile } from '../schema';
import { differences, show, type ChangeNotes } from './describe';

export type SignupFieldChanges = Pick<SiteChangeSet, 'createSignupFields' | 'updateSignupFields'>;

export function signupFieldChanges(fields: SignupFieldRecord[], file: SiteFile, notes: ChangeNotes): SignupFieldChanges {
  const changes: SignupFieldChanges = { createSignupFields: [], updateSignupFields: [] };
  const byKey = new Map(fields.map((f) => [f.key, f]));
  file.signupFields.forEach((entry, position) => {
    const desired = { label: entry.label, required: entry.required, ...('options' in entry && { options: entry.options }), position };
    const existing = byKey.get(entry.key);
    if (!existing) {
      changes.createSignupFields.push({ key: entry.key, type: entry.type, ...desired });
      notes.line('+', `sign-up field ${entry.key}: ${show(entry.label)} (${entry.type}${entry.required ? ', required' : ''})`);
      return;
    }
    if (existing.type !== entry.type) {
      notes.refuse(
        ['signupFields', position, 'type'],
        `sign-up field ${entry.key} is a ${existing.type} field and a field's type never changes (members' answers are of that type): give the new field a new key`,
      );
      return;
    }
    const shown = differences(fieldSettings(existing), desired);
    const restored = existing.archivedAt !== undefined;
    if (shown.length === 0 && !restored) return;
    changes.updateSignupFields.push({ id: existing.id, ...desired, archived: false });
    notes.line(restored ? '+' : '~', `sign-up field ${entry.key}: ${[...(restored ? ["restored with members' answers"] : []), ...shown].join(', ')}`);
  });
  const inFile = new Set(file.signupFields.map((f) => f.key));
  for (const field of fields) {
    if (inFile.has(field.key) || field.archivedAt !== undefined) continue;
    changes.updateSignupFields.push({ id: field.id, ...fieldSettings(field), archived: true });
    notes.line('-', `sign-up field ${field.key}: archived (off the form; members' answers are kept)`);
  }
  return changes;
}

function fieldSettings(f: SignupFieldRecord) {
  return { label: f.label, required: f.required, ...(f.options && { options: f.options }), position: f.position };
}
