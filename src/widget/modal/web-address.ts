/**
 * Only web addresses become a link, a source or a redirect, whatever the data behind the API
 * says: http(s), or a path on the page's own site (`/…`, never `//host`).
 */
export const webAddress = (url: string | undefined): string | undefined => (url && /^(https?:\/\/|\/(?![/\\]))/i.test(url) ? url : undefined);
