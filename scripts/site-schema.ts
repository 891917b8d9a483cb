/** `npm run build:schema`: writes schemas/site.json from the site file's zod model. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { siteJsonSchemaText } from '../src/service/site-file/json-schema';
import { repoRoot } from './lib/paths';

const file = join(repoRoot, 'schemas', 'site.json');
mkdirSync(join(repoRoot, 'schemas'), { recursive: true });
writeFileSync(file, siteJsonSchemaText());
process.stderr.write(`[schema] wrote ${file.slice(repoRoot.length + 1)}\n`);
