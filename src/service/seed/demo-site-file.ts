/** The demo site's file, read from the repository (Node only, like the CLI that seeds it). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../scripts/lib/paths';
import { readSiteFile } from '../site-file/read';
import type { SiteFile } from '../site-file/schema';

export const DEMO_SITE_FILE = join(repoRoot, 'examples', 'sites', 'demo.yaml');

let cached: SiteFile | undefined;

/** The parsed file; it is checked by the tests, so a problem in it is a bug, thrown as such. */
export function demoSiteFile(): SiteFile {
  cached ??= readSiteFile(readFileSync(DEMO_SITE_FILE, 'utf8'), 'yaml', DEMO_SITE_FILE).file;
  return structuredClone(cached);
}
