/**
 * DESIGN.md: the service app runs under node:http and inside MSW in a browser, so what it
 * imports must be portable; Node-only pieces (SQLite, the HTTP server, the CLI) are passed in or
 * live outside its import graph. This walks the graph from the app and the memory store.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { expect, test } from 'vitest';

const NODE_ONLY_PACKAGES = ['better-sqlite3', 'pg', '@hono/node-server', 'tsx', 'sanitize-html'];
const NODE_ONLY_GLOBALS = /\b(process|Buffer|__dirname|require)\s*[.(]/;

function importGraph(entries: string[]): { files: string[]; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, spec] of source.matchAll(/^\s*(?:import|export)\s(?!type\b)[^'"]*?from\s+'([^']+)'/gm)) {
      if (!spec!.startsWith('.')) packages.add(spec!);
      else {
        // A folder's import names its index.ts.
        const path = resolve(dirname(file), spec!);
        visit(existsSync(`${path}.ts`) ? `${path}.ts` : resolve(path, 'index.ts'));
      }
    }
  };
  entries.forEach((entry) => { visit(resolve(entry)); });
  return { files: [...files], packages };
}

test('the service app, the memory store and the browser mock server import nothing Node-only', () => {
  const { files, packages } = importGraph(['src/service/app.ts', 'src/service/store/memory/index.ts', 'mock-server/browser.ts']);
  // The mock server's browser entry reaches the whole app, member API included.
  expect(files).toContain(resolve('src/service/member/app.ts'));
  expect(files.length).toBeGreaterThan(15);
  const nodeOnly = [...packages].filter((p) => p.startsWith('node:') || NODE_ONLY_PACKAGES.some((n) => p === n || p.startsWith(`${n}/`)));
  expect(nodeOnly).toEqual([]);
  for (const file of files) {
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(NODE_ONLY_GLOBALS.test(code), `${file} uses a Node-only global`).toBe(false);
  }
});
