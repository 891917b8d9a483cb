/**
 * What passes between widgets.js and widgets-modal.js, two bundles minified apart: plain names
 * only (the minifier shortens `_`-prefixed ones in each bundle its own way), and no internal
 * object of either side.
 */
import { WIDGET_LOCALES, type ConversionDetail, type SiteConfig } from '../../contract/member';
import type { Credentials, MemberInfo, RegistrationDetails } from '../public-types';

export interface ModalHost {
  /** The logged-in member now, or null. */
  member(): MemberInfo | null;
  login(credentials: Credentials): Promise<MemberInfo>;
  register(details: RegistrationDetails): Promise<MemberInfo>;
  logout(): Promise<void>;
  /**
   * POSTs `body` to `path` (under the site), whose answer is a login (a SessionResponse: a mailed
   * code or link, a password reset), and keeps it as `login` does; `Service.member.info` follows.
   */
  session(path: string, body: unknown): Promise<MemberInfo>;
  /** The site's settings and sign-up fields (GET /config), fetched once per page. */
  config(): Promise<SiteConfig>;
  /**
   * A member API call with the member's session (`path` under the site, e.g. `/invoices`;
   * `body` a JSON value, or a Blob sent as its bytes with its type: a picture). A session the
   * service no longer knows logs the member out.
   */
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** After a plan sign-up: sends `Service.conversion`, then `Service.member.info` with the new membership. */
  converted(detail: ConversionDetail): Promise<void>;
  /** Asks the service for the member again (after an account change); `Service.member.info` follows a change. */
  refresh(): Promise<void>;
}

/**
 * Opens the screen an svcopen path names (spec 4.1); false, with a warning, for a path that names
 * none. Rejects (with the reason shown in a dialog) when the site's settings cannot be loaded.
 */
export type OpenModal = (host: ModalHost, path: string) => Promise<boolean>;

/**
 * Each language's screens are a bundle of their own, with only its words (decision 0023): English
 * is widgets-modal.js, another language `widgets-modal.<locale>.js` (`.de`); this is that part
 * of the name, by the site's locale ('' for English and for any locale without its own words).
 */
export const modalSuffix = (locale: string): string => (locale !== 'en' && (WIDGET_LOCALES as readonly string[]).includes(locale) ? `.${locale}` : '');

/** Where a modal bundle leaves its entry point for the runtime (Symbol.for: one per page and language). */
export const modalEntryKey = (suffix: string): symbol => Symbol.for(`svc.modal${suffix}`);

/** The English bundle's (widgets-modal.js). */
export const MODAL_ENTRY = modalEntryKey('');
