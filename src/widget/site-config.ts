import type { SiteConfig } from '../contract/member';
import type { ApiRequest } from './api-client';

/**
 * GET /config once per page for whoever needs it (the checkbox labels, the screens). A failure
 * is not kept: the next use asks again.
 */
export function siteConfigLoader(request: ApiRequest): () => Promise<SiteConfig> {
  let config: Promise<SiteConfig> | undefined;
  return () =>
    (config ??= request<SiteConfig>('GET', '/config').catch((error: Error) => {
      config = undefined;
      throw error;
    }));
}
