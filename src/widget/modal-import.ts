/**
 * Imports an ES module by its address: how widgets.js loads the screens (modal-loader.ts). A
 * module of its own so that tests in happy-dom, which cannot import from the network, can stand
 * in for it; a browser runs exactly this.
 */
export const importModule = (url: string): Promise<unknown> => import(/* @vite-ignore */ url);
