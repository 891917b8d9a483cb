/**
 * The site file's rules that span entries, which a schema of one entry cannot see: keys used
 * once, library plans that the file defines, prices the currency can hold. They read the file as
 * it was written (before the schema), and skip whatever has the wrong shape (the schema reports
 * that), so one read reports every problem at once.
 */
import { minorDigits } from '../billing/money';
import { isCurrency } from '../domain/currency';

export interface PathIssue {
  path: (string | number)[];
  message: string;
}

type Entry = Record<string, unknown>;
const entries = (value: unknown): [number, Entry][] =>
  Array.isArray(value) ? value.flatMap((v, i): [number, Entry][] => (v && typeof v === 'object' && !Array.isArray(v) ? [[i, v as Entry]] : [])) : [];
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Reports every use of a name after its first, naming where it was first used. */
function usedOnce(issues: PathIssue[], what: string, uses: { name: string | undefined; path: (string | number)[] }[]): Set<string> {
  const first = new Map<string, (string | number)[]>();
  for (const { name, path } of uses) {
    if (name === undefined) continue;
    const earlier = first.get(name);
    if (earlier) issues.push({ path, message: `the ${what} ${JSON.stringify(name)} is used twice (first at ${formatPath(earlier)})` });
    else first.set(name, path);
  }
  return new Set(first.keys());
}

/** Decimals a number prints with: 19.99 has 2, 1e-7 has 7. */
function decimals(n: number): number {
  const [mantissa, exponent = '0'] = n.toString().split('e');
  const fraction = mantissa!.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

export function crossCheck(file: unknown): PathIssue[] {
  const issues: PathIssue[] = [];
  if (!file || typeof file !== 'object') return issues;
  const { site, plans, signupFields, library } = file as Entry;
  const siteCurrency = text((site as Entry | undefined)?.currency) ?? 'usd';

  const planKeys = usedOnce(issues, 'plan key', entries(plans).map(([i, p]) => ({ name: text(p.key), path: ['plans', i, 'key'] })));
  usedOnce(issues, 'sign-up field key', entries(signupFields).map(([i, f]) => ({ name: text(f.key), path: ['signupFields', i, 'key'] })));
  const spaces = entries(library);
  usedOnce(issues, 'space', spaces.map(([i, s]) => ({ name: text(s.space), path: ['library', i, 'space'] })));
  usedOnce(
    issues,
    'content item key',
    spaces.flatMap(([i, s]) => entries(s.items).map(([j, item]) => ({ name: text(item.key), path: ['library', i, 'items', j, 'key'] }))),
  );

  for (const [i, space] of spaces) {
    if (!Array.isArray(space.plans)) continue;
    space.plans.forEach((key, k) => {
      if (typeof key === 'string' && !planKeys.has(key)) {
        issues.push({ path: ['library', i, 'plans', k], message: `no plan in the file has the key ${JSON.stringify(key)}` });
      }
    });
  }

  for (const [i, plan] of entries(plans)) {
    const billing = plan.billing as Entry | undefined;
    if (!billing || typeof billing !== 'object') continue;
    const currency = text(billing.currency) ?? siteCurrency;
    if (!isCurrency(currency)) continue; // the schema says what is wrong with it
    const digits = minorDigits(currency);
    for (const field of ['price', 'signupFee'] as const) {
      const amount = billing[field];
      if (typeof amount === 'number' && Number.isFinite(amount) && decimals(amount) > digits) {
        issues.push({
          path: ['plans', i, 'billing', field],
          message: `${amount} has more decimals than ${currency.toUpperCase()} has (${digits})`,
        });
      }
    }
  }
  return issues;
}

/** `plans[2].billing.price`: a path as an owner finds it in the file. */
export function formatPath(path: readonly (string | number | symbol)[]): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '');
}
