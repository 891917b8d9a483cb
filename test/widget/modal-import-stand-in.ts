/**
 * Stands in for src/widget/modal-import.ts in happy-dom, which cannot import a module from the
 * network: fetches it (MSW answers) and runs its text as a script, as a browser runs the module
 * (the stand-in bundles the tests serve are plain scripts). A failed fetch rejects as a browser's
 * import does, naming the address. Every address asked for is recorded in `imported`.
 *
 *   vi.mock('…/src/widget/modal-import', () => import('…/modal-import-stand-in'));
 */
export const imported: string[] = [];

export async function importModule(url: string): Promise<unknown> {
  imported.push(url);
  const response = await fetch(url).catch(() => undefined);
  if (!response?.ok) throw new TypeError(`Failed to fetch dynamically imported module: ${url}`);
  const script = document.createElement('script');
  script.textContent = await response.text();
  document.head.append(script);
  script.remove();
  return {};
}
