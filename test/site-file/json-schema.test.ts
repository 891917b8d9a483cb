/**
 * The JSON Schema editors check site files against: generated from the zod model, committed at
 * schemas/site.json, served at /schemas/site.json. It must accept the example files and refuse
 * what the model refuses in shape.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../../scripts/lib/paths';
import { createServiceApp } from '../../src/service/app';
import { siteJsonSchemaText } from '../../src/service/site-file/json-schema';
import { createMemoryStore } from '../../src/service/store/memory';

const committed = () => readFileSync(join(repoRoot, 'schemas', 'site.json'), 'utf8');
const exampleFile = (name: string) => parse(readFileSync(join(repoRoot, 'examples', 'sites', name), 'utf8')) as Record<string, unknown>;

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  return ajv.compile(JSON.parse(committed()));
}

test('schemas/site.json is what the model generates (npm run build:schema writes it)', () => {
  expect(committed()).toBe(siteJsonSchemaText());
});

test('the service serves the schema at /schemas/site.json, readable from any origin', async () => {
  const app = await createServiceApp({ store: createMemoryStore() });
  const res = await app.request('/schemas/site.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/schema+json');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(await res.text()).toBe(committed());
});

test.each(['demo.yaml', 'newsletter.yaml'])('the example file %s passes the schema', (name) => {
  const validate = validator();
  const ok = validate(exampleFile(name));
  expect(validate.errors ?? [], name).toEqual([]);
  expect(ok).toBe(true);
});

test('the schema refuses what an editor should flag: an unknown key, a wrong type, a missing name, an unknown plan type', () => {
  const validate = validator();
  const base = exampleFile('demo.yaml');
  const site = base.site as Record<string, unknown>;
  const plans = base.plans as Record<string, unknown>[];
  const cases: [string, unknown][] = [
    ['unknown key', { ...base, site: { ...site, colour: 'red' } }],
    ['wrong type', { ...base, site: { ...site, memberMenu: 'yes' } }],
    ['missing name', { ...base, site: { subdomain: 'x' } }],
    ['unknown plan type', { ...base, plans: [{ ...plans[0], type: 'lifetime' }] }],
    ['unsupported locale', { ...base, site: { ...site, locale: 'fr' } }],
  ];
  for (const [label, file] of cases) expect(validate(file), label).toBe(false);
});
