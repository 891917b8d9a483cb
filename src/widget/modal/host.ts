/**
 * What passes between widgets.js and widgets-modal.js, two bundles minified apart: plain names
 * only (the minifier shortens `_`-prefixed ones in each bundle its own way), and no internal
 * object of either side.
 */
import type { SiteConfig } from '../../contract/member';
import type { Credentials, MemberInfo, RegistrationDetails } from '../public-types';

export interface ModalHost {
  /** The logged-in member now, or null. */
  member(): MemberInfo | null;
  login(credentials: Credentials): Promise<MemberInfo>;
  register(details: RegistrationDetails): Promise<MemberInfo>;
  logout(): Promise<void>;
  /** The site's settings and sign-up fields (GET /config), fetched once per page. */
  config(): Promise<SiteConfig>;
}

/** Opens the screen an svcopen path names (spec 4.1); a path that names none is reported. */
export type OpenModal = (host: ModalHost, path: string) => void;

/** Where the modal bundle leaves its entry point for the runtime (Symbol.for: one per page). */
export const MODAL_ENTRY = Symbol.for('svc.modal');
