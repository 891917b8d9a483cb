/**
 * How a change reads in the plan of changes the owner sees before anything is written:
 * `billing.price 12 → 15`, one entry per leaf that differs.
 */
import { sameJson } from '../../store/site-definition';
import type { PathIssue } from '../cross-check';

export type ChangeOp = '+' | '~' | '-';

/** One line of the plan of changes: `+ plan monthly (subscription)`. */
export interface ChangeLine {
  op: ChangeOp;
  text: string;
}

/**
 * What each part of the comparison says as it goes: its lines for the owner, and what the rules
 * refuse. Every part runs, so one apply names every refusal.
 */
export class ChangeNotes {
  readonly lines: ChangeLine[] = [];
  readonly refused: PathIssue[] = [];
  line(op: ChangeOp, text: string): void {
    this.lines.push({ op, text });
  }
  refuse(path: PathIssue['path'], message: string): void {
    this.refused.push({ path, message });
  }
}

/** A value as a line shows it: JSON, cut at 60 characters. */
export const show = (value: unknown): string => {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

/** `billing.price 12 → 15`, one entry per leaf that differs; long text is only said to change. */
export function differences(before: unknown, after: unknown, path = ''): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => differences(before[k], after[k], path ? `${path}.${k}` : k));
  }
  if (sameJson(before, after)) return [];
  if ((typeof before === 'string' && before.length > 60) || (typeof after === 'string' && after.length > 60)) return [`${path} changed`];
  return [`${path} ${show(before)} → ${show(after)}`];
}

/** `1 membership`, `1,200 members`. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
