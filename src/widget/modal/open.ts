import { log } from '../diagnostics';
import { matchRoute, type Route } from '../router/routes';
import { openDialog } from './dialog';
import type { ModalHost, OpenModal } from './host';
import { messagesFor } from './messages';
import type { Screen, ScreenContext, Screens } from './screen';
import type { ContentViewingPreference, SiteConfig } from '../../contract/member';
import { accountScreen } from './screens/account';
import { contentScreen } from './screens/content';
import { memberMenuScreen } from './screens/member-menu';
import { accountEditScreen, emailChangeScreen, passwordChangeScreen, paymentMethodScreen } from './screens/account-forms';
import { loginScreen } from './screens/login';
import { invoicesScreen } from './screens/invoices';
import { membershipsScreen } from './screens/memberships';
import { planSignupScreen } from './screens/plan-signup';
import { plansScreen } from './screens/plans';
import { registerScreen } from './screens/register';
import { el } from './ui';
import { webAddress } from './web-address';
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
 * The after-registration action (a site setting): the plans on offer, another page, or the
 * dialog closes and the member stays on the page.
 */
export function afterRegistrationScreen(ctx: ScreenContext): void | Promise<void> {
  // No plan on offer: the dialog closes, as after "stay". These plans are the site's offer, not
  // the member's request (plans/all and the menus' Plans say there are none); a dialog with
  // only "no plans" in it would leave a member who has just registered wondering whether that
  // worked. /member/plans with no plan runs this action too, and closes the same way.
  if (ctx.config.afterRegistration.action === 'plans') return plansScreen(ctx, ctx.close);
  const action = ctx.config.afterRegistration;
  if (action.action === 'redirect') ctx.go(action.url);
  else ctx.close();
}

/**
 * Every navigation of the screens: only to an address the check lets through (a plan's welcome
 * or content URL, the after-registration redirect, protected content); another goes nowhere
 * and is said once in the console.
 */
function leave(url: string): void {
  const checked = webAddress(url);
  if (checked) window.location.assign(checked);
}

/**
 * The screen a route opens, by whether someone is logged in and the site's settings (spec 4.1,
 * the svcopen table). "Log in first" and "register first" show that screen, then continue to
 * the screen asked for.
 */
export function screenFor(route: Route, loggedIn: boolean, config: SiteConfig): Screen | null {
  const home = config.memberMenu ? memberMenuScreen : accountScreen;
  const { planPublicId, contentId, viewingPreference } = route.params;
  switch (route.name) {
    case 'signIn':
      return loggedIn ? home : loginScreen();
    case 'signUp': {
      // Registers, then offers the plan named (spec: "registers the user and offers plan sign-up").
      const next = planPublicId ? planSignupScreen(planPublicId) : afterRegistrationScreen;
      return loggedIn ? home : registerScreen(next);
    }
    case 'allPlans':
      return loggedIn ? plansScreen : registerScreen(plansScreen);
    case 'planSignUp': {
      const target = planPublicId ? planSignupScreen(planPublicId) : afterRegistrationScreen;
      return loggedIn ? target : registerScreen(target);
    }
    // These screens ask for a login themselves (forMember: "log in first", then back to them).
    case 'account':
      return accountScreen;
    case 'memberships':
      return membershipsScreen;
    case 'invoices':
      return invoicesScreen;
    case 'content':
      return contentScreen(contentId!, viewingPreference as ContentViewingPreference | undefined);
    case 'accountEdit':
      return accountEditScreen;
    case 'emailChange':
      return emailChangeScreen;
    case 'passwordChange':
      return passwordChangeScreen;
    case 'paymentMethod':
      return paymentMethodScreen;
    default:
      return null; // signOut: the runtime handles it without the modal
  }
}

/** widgets-modal.js's entry: one dialog at a time; a second open replaces the first. */
let current: ScreenContext | undefined;

export const openModal: OpenModal = async (host: ModalHost, path: string) => {
  const route = matchRoute(path);
  if (!route) {
    log.warn(`svcopen=${path} names no screen; see the svcopen paths in the widget's documentation.`);
    return false;
  }
  const doc = document;
  let config: SiteConfig;
  try {
    config = await host.config();
  } catch (error) {
    // Offline, or the service is down: say so in a dialog (in the page's language, the site's is
    // unknown) and reject, so `Service.open` does not resolve as if a screen had opened.
    log.warn(`the widget's screens cannot open: ${(error as Error).message}`);
    const t = messagesFor(doc.documentElement.lang.slice(0, 2).toLowerCase());
    current?.close();
    current = undefined;
    const dialog = openDialog(doc, { title: t.problem, closeLabel: t.close });
    dialog._body.append(el(doc, 'p', { role: 'alert' }, errorText(t, error).message));
    throw error;
  }
  const screen = screenFor(route, !!host.member(), config);
  if (!screen) {
    log.warn(`svcopen=${path} opens no screen.`);
    return true;
  }
  // Nothing to show: an after-registration action that stays or leaves needs no dialog.
  if (screen === afterRegistrationScreen && config.afterRegistration.action !== 'plans') {
    if (config.afterRegistration.action === 'redirect') leave(config.afterRegistration.url);
    return true;
  }
  current?.close();
  const t = messagesFor(config.locale);
  const dialog = openDialog(doc, { title: t.loading, closeLabel: t.close, onClose: () => (current = undefined), ...(config.theme && { theme: config.theme }) });
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
    // The dialog closes even when the address is refused: the member stays on this page, as
    // after an action that stays (the sign-up or registration behind it is done).
    go: (url) => {
      dialog._close();
      leave(url);
    },
    download: leave,
  };
  current = ctx;
  ctx.show(screen);
  return true;
};
