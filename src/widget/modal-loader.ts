import { log } from './diagnostics';
import { MODAL_ENTRY, type OpenModal } from './modal/host';

/**
 * Loads a modal bundle (widgets-modal.js, or another language's, whose entry is at `key`), from
 * the origin widgets.js came from, the first time a screen must open; later calls share the one
 * download. A failed download is reported and may be tried again.
 */
export function modalLoader(doc: Document, src: string, key = MODAL_ENTRY): () => Promise<OpenModal> {
  let loading: Promise<OpenModal> | undefined;
  const entry = () => (doc.defaultView as unknown as Record<symbol, OpenModal | undefined>)[key];
  return () =>
    (loading ??= new Promise<OpenModal>((resolve, reject) => {
      const ready = entry();
      if (ready) return resolve(ready);
      const script = doc.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => {
        const open = entry();
        if (open) resolve(open);
        else reject(new Error(`${src} did not start`));
      };
      script.onerror = () => reject(new Error(`${src} could not be loaded`));
      (doc.head ?? doc.documentElement).appendChild(script);
    }).catch((error: Error) => {
      loading = undefined;
      log.warn(`the widget's screens are unavailable: ${error.message}`);
      throw error;
    }));
}
