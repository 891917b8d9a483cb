/**
 * The widget's public surface: what `window.Service` holds and what each event carries.
 * dist/widgets.d.ts is rolled up from here, so these types are the API documentation.
 */
import type {
  ConversionDetail,
  MemberInfo,
  MemberMetadata,
  SignupFieldValue,
  WidgetErrorCode,
} from '../contract/member';

export type {
  ConversionDetail,
  ConversionMember,
  ConversionOrder,
  CustomSignupField,
  IsoDateTime,
  JsonValue,
  MemberApiErrorCode,
  MemberInfo,
  MemberMetadata,
  Membership,
  SignupFieldOption,
  SignupFieldValue,
  WidgetErrorCode,
  WidgetPlanType,
} from '../contract/member';

/** What the page sets before inserting the script (spec 1.1, 1.2). */
export interface ServiceConfig {
  /** The account's subdomain; required. */
  subdomain: string;
  /**
   * The domain the site's subdomains share. When set, login and logout carry across all of
   * them: the authentication data lives in cookies on this domain instead of localStorage.
   */
  cookieDomain?: string;
  /**
   * The service's origin (`https://members.example.com`), where no script element says it: an
   * install through a bundler (widgets.mjs's `start`), or widgets.js served from elsewhere.
   */
  apiOrigin?: string;
}

/** `Service.getMemberInfo()` (spec 4.1). */
export type MemberInfoResult = { isLoggedIn: true; memberInfo: MemberInfo } | { isLoggedIn: false };

/** Details for `Service.register`: custom sign-up field values are keyed by field id. */
export interface RegistrationDetails {
  /** The address the member will log in with. */
  email: string;
  /**
   * Left out: an account without a password, which logs in with codes mailed to it. The promise
   * then rejects with `emailNotConfirmed` (the code is on its way), and
   * `Service.login({ email, code })` signs the new member in.
   */
  password?: string;
  /** The member's first name, if the form asks for it. */
  firstName?: string;
  /** The member's last name, if the form asks for it. */
  lastName?: string;
  /** Answers to the site's own sign-up questions, by field id (`GET /config`'s `signupFields`). */
  customFields?: Record<string, SignupFieldValue>;
  /**
   * Where the link in a mail about this sign-up leads back to (a page of the site, such as
   * `location.href`): on a site that wants addresses confirmed, the mail with the code has one.
   * Absent: the site's home page.
   */
  returnTo?: string;
}

/**
 * What `Service.login` takes: the e-mail and password, or the e-mail and the 6-digit code mailed
 * to it (the log-in screen's "E-mail me a code", or the code sent when a site wants addresses
 * confirmed). Spaces in a code are the caller's to remove. `returnTo`: as in RegistrationDetails,
 * for the mail a member who has not confirmed their address gets.
 */
export type Credentials = { email: string; password: string; returnTo?: string } | { email: string; code: string };

/** How every widget promise rejects: an `Error` whose `code` tells what went wrong. */
export interface ServiceError extends Error {
  /** What went wrong, for code to tell apart (`invalidCredentials`, `rateLimited`, `networkError`…). */
  readonly code: WidgetErrorCode;
  /** The service's field path for field errors (`email`, `customFields.3`, …); `base` otherwise. */
  readonly path: string;
  /**
   * Every problem the service named, when it named several at once (a form with more than one
   * bad field); `code`, `path` and `message` are the first of them.
   */
  readonly errors?: readonly { path: string; code: string; message: string }[];
}

/** The functions and flag the widget adds to `window.Service` (spec 4.1). */
export interface ServiceApi {
  /** True once the widget has loaded; `Service.ready` (the event) has fired by then. */
  readonly ready: boolean;
  /** The member's state right now; synchronous. */
  getMemberInfo(): MemberInfoResult;
  /** Resolves with the member's metadata object (`{}` until first set). */
  getMemberMetadata(): Promise<MemberMetadata>;
  /**
   * Merges `data` into the stored metadata at every level; `null` removes a key; arrays and
   * other values replace what was there. Resolves with the metadata after the update.
   */
  updateMemberMetadata(data: MemberMetadata): Promise<MemberMetadata>;
  /** Resets the metadata to `{}`. */
  clearMemberMetadata(): Promise<MemberMetadata>;
  /**
   * Signs in; fires `Service.member.info`. Resolves with the member. On a site that lets members
   * in only with a confirmed address, a member who has not confirmed theirs yet is refused with
   * `emailNotConfirmed`, and a code is mailed to them: `login({ email, code })` with it signs in.
   * A code that signs nobody in (mistyped, too old, used or tried too often) rejects with
   * `invalidCode`, whichever it is, so that the answer tells nobody who is a member.
   */
  login(credentials: Credentials): Promise<MemberInfo>;
  /**
   * Creates a member and signs them in; fires `Service.member.registration`, then `Service.member.info`.
   * On a site that lets members in only once they have confirmed their address, nobody is signed
   * in yet: it rejects with `emailNotConfirmed` (path `email`), whose message says a code was
   * mailed to the address; `login({ email, code })` with that code signs the member in.
   */
  register(details: RegistrationDetails): Promise<MemberInfo>;
  /** Signs out here and on the service; fires `Service.member.logout`. */
  logout(): Promise<void>;
  /**
   * Opens the screen of an svcopen path (spec 4.1), such as `/member/account` or
   * `/content/12/popup`, as `?svcopen=` would at start-up, without a reload. `/member/sign_out`
   * logs out. Resolves once the screen is opening; rejects with `unknownScreen` for a path that
   * names none, or `networkError` when the screens cannot be downloaded.
   */
  open(path: string): Promise<void>;
}

/** `window.Service` after the widget has loaded: the page's configuration plus the API. */
export type ServiceGlobal = ServiceConfig & ServiceApi;

/** `Service.ready`'s detail. */
export interface ReadyDetail {
  /** Present when a member is logged in. */
  memberInfo?: MemberInfo;
}

/** `Service.member.info`'s and `Service.member.registration`'s detail. */
export interface MemberInfoDetail {
  /** The member as they are now. */
  memberInfo: MemberInfo;
}

/** Every event the widget dispatches on `document` (spec 6.1), by name. */
export interface ServiceEventMap {
  /** Once, as soon as the stored login is known. */
  'Service.ready': CustomEvent<ReadyDetail>;
  /** The member logged in, or their data changed. */
  'Service.member.info': CustomEvent<MemberInfoDetail>;
  /** Nobody is logged in (at start, or after a logout anywhere). No payload: `detail` is null. */
  'Service.member.logout': CustomEvent<null>;
  /** A new member registered, before its `Service.member.info`. */
  'Service.member.registration': CustomEvent<MemberInfoDetail>;
  /** A member signed up to a plan. */
  'Service.conversion': CustomEvent<ConversionDetail>;
}

declare global {
  // Listeners on `document` get each event's typed `detail`.
  interface DocumentEventMap extends ServiceEventMap {}
  interface Window {
    /**
     * The page's install configuration, to which the widget adds its API (the same object). Set
     * before the widget loads (`window.Service = { subdomain: 'demo' }`, which type-checks as it
     * is), read after it has (`window.Service.getMemberInfo()`).
     */
    get Service(): ServiceGlobal;
    /** The install configuration, as the page sets it before the widget loads. */
    set Service(config: ServiceConfig);
  }
  /** `Service.getMemberInfo()` as `window.Service.getMemberInfo()`: the same object, read. */
  const Service: ServiceGlobal;
}
