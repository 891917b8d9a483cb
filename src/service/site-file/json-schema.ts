/**
 * The site file's JSON Schema, generated from the zod model (./schema), so editors complete and
 * check site files (`# yaml-language-server: $schema=…`). The service serves it at
 * /schemas/site.json; schemas/site.json in the repository is the same document (npm run
 * build:schema writes it; a test fails when it is stale).
 */
import { z } from 'zod';
import { WIDGET_LOCALES } from '../../contract/member';
import { siteFileSchema } from './schema';

export const SITE_SCHEMA_PATH = '/schemas/site.json';

let text: string | undefined;

export function siteJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(siteFileSchema, {
    io: 'input',
    // Rules a JSON Schema cannot say (ISO 4217, keys used once) are checked by svc sites apply.
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      // Completion for the two codes an owner most often types.
      const description = (zodSchema as { description?: string }).description ?? '';
      if (description.startsWith('The language of the widget')) jsonSchema.enum = [...WIDGET_LOCALES];
      if (description.startsWith('ISO 4217')) jsonSchema.examples = ['usd', 'eur', 'gbp', 'jpy', 'chf'];
    },
  });
  return {
    $schema: schema.$schema,
    $id: `https://svc.invalid${SITE_SCHEMA_PATH}`,
    title: 'svc site file',
    description: 'One membership site: its settings, plans, sign-up fields, content library and webhook endpoints (svc sites apply).',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}

/** The schema as served and committed: stable text, two-space indented, ending in a newline. */
export function siteJsonSchemaText(): string {
  text ??= `${JSON.stringify(siteJsonSchema(), null, 2)}\n`;
  return text;
}
