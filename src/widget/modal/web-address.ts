/** Only web addresses become a link, a source or a redirect, whatever the data behind the API says. */
export const webAddress = (url: string | undefined): string | undefined => (url && /^https?:\/\//i.test(url) ? url : undefined);
