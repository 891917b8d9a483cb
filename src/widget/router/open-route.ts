import type { MemberInfo, SessionResponse, SiteConfig } from '../../contract/member';
import { dispatchConversion } from '../conversion';
import { clone, stringify } from '../json';
import { pageLocale, showLoading } from '../loading-dialog';
import type { ModalHost, OpenModal } from '../modal/host';
import type { Functions } from '../service-api';
import type { Session } from '../session';

/** The runtime's side of the modal: what the screens may use, with plain names (host.ts). */
export function modalHost(session: Session, functions: Functions, config: () => Promise<SiteConfig>): ModalHost {
  // Always a new request: one already under way may have left before the change it must show.
  const refresh = async () => session._apply(await session._call<MemberInfo>('GET', '/me'));
  return {
    member: () => (session._member ? clone(session._member) : null),
    login: functions.login,
    register: functions.register,
    logout: functions.logout,
    // With the member's token when one is held: a sign-up's link followed in the browser it signed
    // in keeps the password chosen there (the service takes it away for anyone else).
    session: async (path, body) => session._signIn(await session._request<SessionResponse>('POST', path, session._token, stringify(body)), false),
    // A file (a picture) goes as its bytes, any other body as JSON.
    call: <T>(method: string, path: string, body?: unknown) =>
      session._call<T>(method, path, body === undefined || body instanceof Blob ? body : stringify(body)),
    // The member with the new membership is held before Service.conversion is sent (spec 2.7:
    // MemberInfo is the state at the moment of the event); when it cannot be had, the event still goes.
    async converted(detail) {
      const announce = () => dispatchConversion(session._doc, detail);
      const member = await session._call<MemberInfo>('GET', '/me').catch(() => undefined);
      if (member) session._apply(member, announce);
      else announce();
    },
    refresh,
    config,
  };
}

/**
 * Acts on an svcopen path once the widget is ready: signing out needs no screen (and does
 * nothing when nobody is logged in); everything else opens in the modal, downloaded on first use,
 * in the site's language: each language's screens are a bundle (decision 0023), so the site's
 * settings come first (the screens need them next anyway); when they cannot be had, the page's
 * language, in which the screens say so.
 * Resolves false when the path names no screen; rejects when the modal cannot be downloaded.
 */
export async function openRoute(path: string, session: Session, host: ModalHost, loadModal: (locale: string) => Promise<OpenModal>): Promise<boolean> {
  if (/^\/member\/sign_out\/?$/.test(path)) {
    if (session._member) await session._logout();
    return true;
  }
  // The dialog shows at once; the screens' own replaces it once they are downloaded.
  const loading = showLoading(session._doc);
  let open: OpenModal;
  try {
    // In the site's theme as soon as its settings are here, while the screens still download.
    open = await loadModal(await host.config().then((config) => (loading._theme(config.theme), config.locale), () => pageLocale(session._doc)));
  } catch (error) {
    loading._done();
    throw error;
  }
  // Closed with Escape while it loaded: the member gave up, nothing opens.
  return loading._done() ? open(host, path) : true;
}
