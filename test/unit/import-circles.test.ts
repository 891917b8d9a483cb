/**
 * No module of src/ imports, through any chain, a module that imports it back (issue 27). A
 * circle makes the order modules are evaluated in depend on which is imported first, and ties
 * together what should change apart; type-only imports count too, since they tie the files'
 * meaning together just the same. Shared types get one home, factories a file of their own.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = resolve('src');
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']*)'/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.ts$/.test(name) ? [path] : [];
  });
}

/** The file a relative import names: `x.ts`, or a folder's `index.ts`. */
function target(from: string, spec: string): string | undefined {
  const path = resolve(dirname(from), spec);
  for (const candidate of [path, `${path}.ts`, join(path, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Strongly connected components of more than one file (Tarjan), each a circle of imports. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.map((f) => relative(ROOT, f)).sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

test('src/ has no import circle', () => {
  const files = sourceFiles(ROOT);
  expect(files.length).toBeGreaterThan(100);
  const graph = new Map(files.map((file) => {
    const source = readFileSync(file, 'utf8');
    return [file, [...source.matchAll(IMPORT)].map(([, spec]) => target(file, spec!)).filter((t): t is string => t !== undefined)];
  }));
  expect(circles(graph)).toEqual([]);
});
