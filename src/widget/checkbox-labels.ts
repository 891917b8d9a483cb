import type { SiteConfig } from '../contract/member';
import { log } from './diagnostics';
import type { KeyValueStore } from './storage';

/** Stored labels older than this are used once more while the service is asked again. */
export const LABELS_MAX_AGE_MS = 86_400_000;

/** "Yes" and "No" in the site's language. */
export type Labels = [yes: string, no: string];

const ENGLISH: Labels = ['Yes', 'No'];

/**
 * How a checkbox field reads as text, in the site's language (`checkboxLabels` of
 * `GET /config`): asked for only when a page shows such a field, and kept in storage so the
 * next page has it at once.
 */
export interface CheckboxLabels {
  /** The labels when known; otherwise null, and they are being fetched: `_loaded` follows. */
  _get(): Labels | null;
  /** Called when fetched labels arrive (or the fetch fails, and English stands in). */
  _loaded: () => void;
}

export function checkboxLabels(loadConfig: () => Promise<SiteConfig>, storage: KeyValueStore, key: string): CheckboxLabels {
  let labels: Labels | null = null;
  let fetching = false;
  const take = (fresh: Labels): void => {
    if (labels && fresh.join() === labels.join()) return;
    labels = fresh;
    self._loaded();
  };
  const fetchLabels = (): void => {
    if (fetching) return;
    fetching = true;
    loadConfig().then(
      ({ checkboxLabels: fresh }) => {
        const pair: Labels = fresh && typeof fresh.yes === 'string' && typeof fresh.no === 'string' ? [fresh.yes, fresh.no] : ENGLISH;
        storage._set(key, JSON.stringify([...pair, Date.now()]));
        take(pair);
      },
      (error: Error) => {
        log.warn(`could not read the site's language, English stands in: ${error.message}`);
        if (!labels) take(ENGLISH);
      },
    );
  };
  const self: CheckboxLabels = {
    _get() {
      if (labels || fetching) return labels;
      let stored: unknown;
      try {
        stored = JSON.parse(storage._get(key) ?? 'null');
      } catch {
        // unreadable: fetched again below
      }
      if (Array.isArray(stored) && typeof stored[0] === 'string' && typeof stored[1] === 'string' && typeof stored[2] === 'number') {
        labels = [stored[0], stored[1]];
        if (Date.now() - stored[2] > LABELS_MAX_AGE_MS) fetchLabels();
      } else fetchLabels();
      return labels;
    },
    _loaded: () => undefined,
  };
  return self;
}
