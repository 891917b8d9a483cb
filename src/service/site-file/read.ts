/**
 * Reading a site file: YAML or JSON text to a checked SiteFile, or every problem in it at once,
 * each with its place (`plans[2].billing.price`) and its line.
 *
 * Both formats go through the `yaml` package's parser, which keeps where every node came from
 * (JSON is YAML 1.2). A `.json` file must also be JSON: YAML's extras are refused in it.
 */
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { crossCheck, formatPath, type PathIssue } from './cross-check';
import { siteFileSchema, type SiteFile } from './schema';

export type SiteFileFormat = 'yaml' | 'json';

export interface SiteFileProblem {
  /** Where in the file: `plans[2].billing.price`; empty for the file as a whole. */
  path: string;
  /** 1-based; absent when the problem has no one place (a file that does not parse as a whole). */
  line?: number;
  message: string;
}

/** A file that cannot be applied: every problem found, in file order. */
export class SiteFileError extends Error {
  override readonly name = 'SiteFileError';
  constructor(
    readonly source: string,
    readonly problems: SiteFileProblem[],
  ) {
    super(`${source}: ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}\n${problems.map((p) => `  ${describeProblem(source, p)}`).join('\n')}`);
  }
}

/** `site.yaml:12: plans[0].billing.price: …`, as compilers print a place. */
export function describeProblem(source: string, problem: SiteFileProblem): string {
  const place = problem.line === undefined ? source : `${source}:${problem.line}`;
  return problem.path ? `${place}: ${problem.path}: ${problem.message}` : `${place}: ${problem.message}`;
}

/** `json` for a `.json` file name, else `yaml` (which reads JSON as well). */
export function formatOf(fileName: string): SiteFileFormat {
  return /\.json$/i.test(fileName) ? 'json' : 'yaml';
}

export interface ReadSiteFile {
  file: SiteFile;
  /** The line of a place in the file, for problems found later (a plan's type that cannot change). */
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/** The text as a site file; throws SiteFileError naming every problem. `source` names the file in messages. */
export function readSiteFile(text: string, format: SiteFileFormat, source: string): ReadSiteFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, merge: false });
  const syntax: SiteFileProblem[] = doc.errors.map((e) => ({
    path: '',
    line: lines.linePos(e.pos[0]).line,
    message: e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''),
  }));
  if (syntax.length === 0 && format === 'json') {
    try {
      JSON.parse(text);
    } catch (error) {
      syntax.push({ path: '', line: jsonErrorLine(text, (error as Error).message, lines), message: `not JSON: ${(error as Error).message}` });
    }
  }
  if (syntax.length > 0) throw new SiteFileError(source, syntax);

  const raw: unknown = doc.toJS({ maxAliasCount: 100 });
  if (raw === null || raw === undefined) throw new SiteFileError(source, [{ path: '', message: 'the file is empty: it needs at least a site: section' }]);
  // With the input in each issue, a missing field (input undefined) is told from a wrong one.
  const result = siteFileSchema.safeParse(raw, { reportInput: true });
  const issues: PathIssue[] = [...(result.success ? [] : result.error.issues.flatMap(unpack)), ...crossCheck(raw)];
  if (issues.length === 0 && result.success) return { file: result.data, lineOf: (path) => lineOf(doc, lines, path) };

  const problems = issues.map((issue) => ({ path: formatPath(issue.path), line: lineOf(doc, lines, issue.path), message: issue.message }));
  // File order, then path: what an owner reads top to bottom.
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || a.path.localeCompare(b.path));
  throw new SiteFileError(source, dedupe(problems));
}

/** One issue per unknown key, pointing at the key itself; readable words for a wrong or missing `type`. */
function unpack(issue: z.core.$ZodIssue): PathIssue[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: [...path, key], message: `unknown key ${JSON.stringify(key)}` }));
  }
  if (issue.code === 'invalid_union' && 'note' in issue && issue.note === 'No matching discriminator') {
    // The path ends at the discriminator (`type`); the options are the types there are.
    const options = (issue as { options?: unknown[] }).options ?? [];
    return [{ path, message: `missing or unknown type${options.length ? `: one of ${options.map(String).join(', ')}` : ''}` }];
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return [{ path, message: 'is required' }];
  return [{ path, message: issue.message }];
}

/** The line of the deepest node of the path the file has (a missing key: its parent's line). */
function lineOf(doc: Document, lines: LineCounter, path: readonly (string | number)[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const prefix = path.slice(0, depth);
    const parent = depth === 0 ? doc.contents : doc.getIn(prefix.slice(0, -1), true);
    // Point at the key of a mapping entry (`price:`), not the start of its value.
    if (depth > 0 && isMap(parent)) {
      const pair = parent.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === prefix.at(-1));
      const range = pair && isScalar(pair.key) ? pair.key.range : undefined;
      if (range) return lines.linePos(range[0]).line;
      continue;
    }
    const node = depth === 0 ? doc.contents : doc.getIn(prefix, true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (range) return lines.linePos(range[0]).line;
  }
  return undefined;
}

function dedupe(problems: SiteFileProblem[]): SiteFileProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.line}\n${p.path}\n${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The line of a JSON.parse failure: from the position V8 names ("at position 15"), else from the
 * first place of the token it names ("Unexpected token '#'"), else the first line.
 */
function jsonErrorLine(text: string, message: string, lines: LineCounter): number {
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return lines.linePos(Math.min(Number(position), text.length)).line;
  const token = /Unexpected token '(.)'/.exec(message)?.[1];
  const at = token === undefined ? -1 : text.indexOf(token);
  return at >= 0 ? lines.linePos(at).line : 1;
}
