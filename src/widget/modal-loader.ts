import { log } from './diagnostics';
import { importModule } from './modal-import';
import { MODAL_ENTRY, type OpenModal } from './modal/host';

/**
 * Loads a modal bundle (widgets-modal.js, or another language's, whose entry is at `key`), from
 * the origin widgets.js came from, the first time a screen must open; later calls share the one
 * download. A failed download is reported and may be tried again. The bundle is an ES module
 * (its groups of screens are chunks it imports when one is drawn: modal/screen-chunks.ts),
 * imported with CORS, which the service's /scripts/ answers allow; it leaves its entry on
 * `window`, where one that came another way is found too.
 */
export function modalLoader(doc: Document, src: string, key = MODAL_ENTRY): () => Promise<OpenModal> {
  let loading: Promise<OpenModal> | undefined;
  const entry = () => (doc.defaultView as unknown as Record<symbol, OpenModal | undefined>)[key];
  return () =>
    (loading ??= Promise.resolve(entry() ?? importModule(src).then(() => entry() ?? Promise.reject(new Error(`${src} did not start`)))).catch((error: Error) => {
      loading = undefined;
      log.warn(`the widget's screens are unavailable: ${error.message}`);
      throw error;
    }));
}
