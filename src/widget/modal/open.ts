import { log } from '../diagnostics';
import { matchRoute, type Route } from '../router/routes';
import { openDialog } from './dialog';
import type { ModalHost, OpenModal } from './host';
import { messagesFor } from './messages';
import type { Screen, ScreenContext, Screens } from './screen';
import { accountScreen } from './screens/account';
import { accountEditScreen, emailChangeScreen, passwordChangeScreen, paymentMethodScreen } from './screens/account-forms';
import { loginScreen } from './screens/login';
import { invoicesScreen } from './screens/invoices';
import { membershipsScreen } from './screens/memberships';
import { planSignupScreen } from './screens/plan-signup';
import { plansScreen } from './screens/plans';
import { registerScreen } from './screens/register';
import { el } from './ui';
import { errorText, render } from './screen';

const SCREENS: Screens = {
  login: loginScreen,
  register: registerScreen,
  account: accountScreen,
  plans: plansScreen,
  planSignup: planSignupScreen,
  memberships: membershipsScreen,
  invoices: invoicesScreen,
  accountEdit: accountEditScreen,
  emailChange: emailChangeScreen,
  passwordChange: passwordChangeScreen,
  paymentMethod: paymentMethodScreen,
};

/**
 * The screen a route opens, by whether someone is logged in (spec 4.1, the svcopen table).
 * "Log in first" shows the login screen and continues to the screen asked for. Null: this
 * version has no screen for the route yet.
 */
export function screenFor(route: Route, loggedIn: boolean): Screen | null {
  switch (route.name) {
    case 'signIn':
      return loggedIn ? accountScreen : loginScreen();
    case 'signUp': {
      // Registers, then offers the plan named (spec: "registers the user and offers plan sign-up").
      const plan = route.params.planPublicId;
      return loggedIn ? accountScreen : registerScreen(plan ? planSignupScreen(plan) : undefined);
    }
    case 'account':
      return loggedIn ? accountScreen : loginScreen(accountScreen);
    case 'allPlans':
      return loggedIn ? plansScreen : registerScreen(plansScreen);
    case 'planSignUp': {
      const target = route.params.planPublicId ? planSignupScreen(route.params.planPublicId) : plansScreen;
      return loggedIn ? target : registerScreen(target);
    }
    case 'memberships':
      return loggedIn ? membershipsScreen : loginScreen(membershipsScreen);
    case 'invoices':
      return loggedIn ? invoicesScreen : loginScreen(invoicesScreen);
    // These screens ask for a login themselves ("log in first", then back to them).
    case 'accountEdit':
      return accountEditScreen;
    case 'emailChange':
      return emailChangeScreen;
    case 'passwordChange':
      return passwordChangeScreen;
    case 'paymentMethod':
      return paymentMethodScreen;
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
        // A screen that cannot load its data says so in the dialog, in words.
        show: (next) =>
          void Promise.resolve()
            .then(() => next(ctx))
            .catch((error: unknown) => render(ctx, t.problem, el(doc, 'p', { role: 'alert' }, errorText(t, error).message))),
        close: () => dialog._close(),
        go: (url) => {
          dialog._close();
          window.location.assign(url);
        },
      };
      current = ctx;
      ctx.show(screen);
    },
    (error: Error) => log.warn(`the widget's screens cannot open: ${error.message}`),
  );
};
