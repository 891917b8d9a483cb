import { log } from '../diagnostics';
import { matchRoute, type Route } from '../router/routes';
import { openDialog } from './dialog';
import type { ModalHost, OpenModal } from './host';
import { messagesFor } from './messages';
import type { Screen, ScreenContext, Screens } from './screen';
import { accountScreen } from './screens/account';
import { loginScreen } from './screens/login';
import { registerScreen } from './screens/register';

const SCREENS: Screens = { login: loginScreen, register: registerScreen, account: accountScreen };

/**
 * The screen a route opens, by whether someone is logged in (spec 4.1, the svcopen table).
 * "Log in first" shows the login screen and continues to the screen asked for. Null: this
 * version has no screen for the route yet.
 */
export function screenFor(route: Route, loggedIn: boolean): Screen | null {
  switch (route.name) {
    case 'signIn':
      return loggedIn ? accountScreen : loginScreen();
    case 'signUp':
      if (route.params.planPublicId) return null;
      return loggedIn ? accountScreen : registerScreen();
    case 'account':
      return loggedIn ? accountScreen : loginScreen(accountScreen);
    default:
      return null;
  }
}

/** widgets-modal.js's entry: one dialog at a time; a second open replaces the first. */
let current: ScreenContext | undefined;

export const openModal: OpenModal = (host: ModalHost, path: string) => {
  const route = matchRoute(path);
  if (!route) return log.warn(`svcopen=${path} names no screen; see the svcopen paths in the widget's documentation.`);
  const screen = screenFor(route, !!host.member());
  if (!screen) return log.warn(`svcopen=${path} has no screen in this version of the widget yet.`);
  void host.config().then(
    (config) => {
      current?.close();
      const doc = document;
      const t = messagesFor(config.locale);
      const dialog = openDialog(doc, { title: t.loading, closeLabel: t.close, onClose: () => (current = undefined) });
      const ctx: ScreenContext = {
        doc,
        host,
        dialog,
        t,
        config,
        screens: SCREENS,
        show: (next) => next(ctx),
        close: () => dialog._close(),
      };
      current = ctx;
      screen(ctx);
    },
    (error: Error) => log.warn(`the widget's screens cannot open: ${error.message}`),
  );
};
