import type { SessionResponse } from '../contract/member';
import { networkError, serviceError } from './errors';
import { clone, isObject, stringify } from './json';
import type { Credentials, MemberMetadata, RegistrationDetails, ServiceApi } from './public-types';
import type { Session } from './session';

export type Functions = Omit<ServiceApi, 'ready'>;

const METADATA_PATH = '/me/metadata';

/**
 * Adds the API (spec 4.1) to the page's own `window.Service`, next to its configuration.
 * Every function answers a promise that rejects with a ServiceError; none throws.
 * Returns the functions (the modal uses them too) and a function that takes the API off again.
 */
export function installApi(
  target: Record<string, unknown>,
  session: Session,
  openPath: (path: string) => Promise<boolean>,
): { _functions: Functions; _uninstall: () => void } {
  const check = (loggedIn?: boolean): void => {
    if (!session._ready) throw serviceError('notReady', 'The widget is not ready yet: wait for the Service.ready event.');
    if (loggedIn && !session._member) throw serviceError('notLoggedIn', 'No member is logged in.');
  };
  const metadata = async (method: string, body?: string): Promise<MemberMetadata> => {
    check(true);
    return session._call<MemberMetadata>(method, METADATA_PATH, body);
  };
  const signIn = async (path: string, details: Credentials | RegistrationDetails, registered: boolean) => {
    check();
    // `returnTo`: where a mail this may send (a confirmation) leads back to, this page.
    const response = await session._request<SessionResponse>('POST', path, null, stringify({ ...details, returnTo: location.href }));
    return session._signIn(response, registered);
  };
  const functions: Functions = {
    getMemberInfo: () => {
      const member = session._member;
      return member ? { isLoggedIn: true, memberInfo: clone(member) } : { isLoggedIn: false };
    },
    getMemberMetadata: () => metadata('GET'),
    updateMemberMetadata: async (data) => {
      check(true);
      const body = isObject(data) ? stringify(data) : undefined;
      if (body === undefined) throw serviceError('invalidMetadata', 'Metadata must be a JSON object such as { "key": "value" }.');
      return metadata('PATCH', body);
    },
    clearMemberMetadata: () => metadata('DELETE'),
    login: (credentials) => signIn('/sessions', credentials, false),
    register: (details) => signIn('/members', details, true),
    logout: async () => {
      check();
      await session._logout();
    },
    open: async (path) => {
      check();
      let opened = false;
      try {
        opened = typeof path === 'string' && (await openPath(path));
      } catch (error) {
        // The service's own answer (the site's settings could not be loaded) as it came; a failed download in words.
        throw (error as { name?: string }).name === 'ServiceError' ? error : networkError('The widget’s screens could not be downloaded.');
      }
      if (!opened) throw serviceError('unknownScreen', `${JSON.stringify(path)} names no screen: give a path of the svcopen table, such as "/member/account".`);
    },
  };
  Object.defineProperty(target, 'ready', { get: () => session._ready, enumerable: true, configurable: true });
  Object.assign(target, functions);
  return {
    _functions: functions,
    _uninstall: () => {
      for (const name of ['ready', ...Object.keys(functions)]) delete target[name];
    },
  };
}
