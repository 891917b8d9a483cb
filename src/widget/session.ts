import type { MailSentResponse, SessionResponse } from '../contract/member';
import type { ApiRequest } from './api-client';
import { log } from './diagnostics';
import { dispatch } from './dispatch';
import { networkError, serviceError } from './errors';
import { clone, deepEqual, isObject } from './json';
import type { MemberCache } from './member-cache';
import type { MemberInfo, ServiceError } from './public-types';
import type { TokenStore } from './token-store';

/**
 * Who is logged in, and the events that say so (spec 6.1). The page sees a member only when
 * `_member` is set: `Service.member.info` is never sent without one, and
 * `Service.member.logout` only when one goes away (or, at start, when there is none).
 */
export class Session {
  _ready = false;
  _token: string | null = null;
  _member: MemberInfo | null = null;
  /**
   * False only while a stored login waits for its first answer (a token with no cached member):
   * the page must not be shown as either logged in or logged out yet.
   */
  _known = false;
  /** Called, before any event goes out, whenever `_member` or `_known` changes. */
  _changed: () => void = () => undefined;
  /** When the service last told us who the member is (ms since epoch). */
  _fetchedAt = 0;
  _stopped = false;
  _refreshing: Promise<void> | undefined;
  _refreshingToken: string | null = null;

  constructor(
    readonly _doc: Document,
    readonly _request: ApiRequest,
    readonly _tokens: TokenStore,
    readonly _cache: MemberCache,
  ) {}

  /** Takes the stored login, synchronously, so the page can be drawn for it before first paint. */
  _restore(): void {
    const token = (this._token = this._tokens._get());
    this._member = token ? this._cache._get(token) : null;
    this._known = !token || !!this._member;
  }

  /**
   * Ready as soon as the stored login is known: from the cache when there is one (checked in
   * the background), from the service when only a token is there (set on another subdomain).
   */
  async _start(): Promise<void> {
    const cached = this._known && !!this._member;
    if (!this._known) {
      await this._refresh();
      this._known = true;
      if (!this._member && !this._stopped) this._changed();
    }
    if (this._stopped) return;
    this._ready = true;
    const member = this._member;
    this._dispatchReady(member);
    if (member) this._dispatchInfo();
    else dispatch(this._doc, 'Service.member.logout', null);
    if (cached) void this._refresh();
  }

  _dispatchReady(member: MemberInfo | null): void {
    dispatch(this._doc, 'Service.ready', member ? { memberInfo: clone(member) } : {});
  }

  _dispatchInfo(): void {
    if (this._member) dispatch(this._doc, 'Service.member.info', { memberInfo: clone(this._member) });
  }

  /** Asks the service who the member is now; one request at a time per token. */
  _refresh(): Promise<void> {
    const token = this._token;
    if (!token || this._stopped) return Promise.resolve();
    if (this._refreshing && this._refreshingToken === token) return this._refreshing;
    this._refreshingToken = token;
    return (this._refreshing = this._call<MemberInfo>('GET', '/me')
      .then(
        (member) => {
          if (token !== this._token) return;
          this._fetchedAt = Date.now();
          this._apply(member);
        },
        (error: ServiceError) => {
          // A revoked session has logged out already (_call); anything else keeps the cache.
          if (error.code !== 'unauthenticated') log.warn(`could not check the member: ${error.message}`);
        },
      )
      .finally(() => {
        if (this._refreshingToken === token) this._refreshing = undefined;
      }));
  }

  /**
   * Takes fresh member data; tells the page only when it differs from what it has. `first` is
   * sent once the data is held and before `Service.member.info` (a conversion: its listeners'
   * getMemberInfo() holds the membership just bought, spec 2.7).
   */
  _apply(member: MemberInfo, first?: () => void): void {
    if (this._stopped || !this._token || deepEqual(member, this._member)) return first?.();
    this._member = member;
    this._known = true;
    this._cache._set(this._token, member);
    this._changed();
    first?.();
    if (this._ready) this._dispatchInfo();
  }

  /**
   * After sign-in or sign-up: keep the login, tell the page. A sign-up the site lets in only once
   * the address is confirmed answers that a code was mailed instead (202): no login yet.
   */
  _signIn(response: SessionResponse | MailSentResponse, registered: boolean): MemberInfo {
    const { token, memberInfo, mailSent, email } = (isObject(response) ? response : {}) as Partial<SessionResponse & MailSentResponse>;
    if (mailSent) throw serviceError('emailNotConfirmed', `Confirm the address with the code sent to ${email}.`, 'email');
    if (typeof token !== 'string' || !isObject(memberInfo)) throw networkError('The service answered without a session.');
    // Signing in over another login ends that session on the service too: none is left behind.
    const previous = this._token;
    if (previous && previous !== token) void this._request('DELETE', '/sessions/current', previous).catch(() => undefined);
    // The cache first: another tab that sees the new token finds its member already there.
    this._cache._set(token, memberInfo);
    this._tokens._set(token);
    this._token = token;
    this._member = memberInfo;
    this._known = true;
    this._fetchedAt = Date.now();
    this._changed();
    if (registered || (response as SessionResponse).registered) dispatch(this._doc, 'Service.member.registration', { memberInfo: clone(memberInfo) });
    this._dispatchInfo();
    return clone(memberInfo);
  }

  /** Forgets the login here (and, through storage, in other tabs and subdomains). */
  _end(): void {
    const wasLoggedIn = !!this._member;
    this._token = this._member = null;
    this._tokens._clear();
    this._cache._clear();
    if (this._stopped) return;
    if (wasLoggedIn) this._changed();
    if (wasLoggedIn && this._ready) dispatch(this._doc, 'Service.member.logout', null);
  }

  async _logout(): Promise<void> {
    const token = this._token;
    if (!token) return;
    // Logged out here whatever the service says: a network failure must not keep anyone in.
    await this._request('DELETE', '/sessions/current', token).catch(() => undefined);
    if (token === this._token) this._end();
  }

  /** An authenticated call; the service saying the session is gone logs the member out. */
  async _call<T>(method: string, path: string, body?: string | Blob): Promise<T> {
    const token = this._token;
    try {
      return await this._request<T>(method, path, token, body);
    } catch (error) {
      if ((error as ServiceError).code === 'unauthenticated' && token === this._token) this._end();
      throw error;
    }
  }

  /** The stored login changed in another tab or on another subdomain: follow it. */
  _sync(): void {
    if (!this._ready || this._stopped) return;
    const token = this._tokens._get();
    const cached = token ? this._cache._get(token) : null;
    if (!token) {
      if (this._token) this._end();
      return;
    }
    const changed = token !== this._token;
    this._token = token;
    if (cached) this._apply(cached);
    else if (changed) void this._refresh();
  }

  /** Checks the member again if the last answer is older than `maxAgeMs`. */
  _refreshIfOlder(maxAgeMs: number): void {
    if (this._ready && Date.now() - this._fetchedAt > maxAgeMs) void this._refresh();
  }
}
