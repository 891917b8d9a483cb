import { log } from '../diagnostics';
import { matchRoute, type Route } from '../router/routes';
import { openDialog } from './dialog';
import type { ModalHost, OpenModal } from './host';
import type { BaseWords, Messages, WordLoaders } from './messages';
import type { Screen, ScreenContext, Screens } from './screen';
import type { ContentViewingPreference, SiteConfig } from '../../contract/member';
import {
  accountEditScreen,
  accountScreen,
  askCodeScreen,
  contentScreen,
  emailChangeScreen,
  emailConfirmScreen,
  forgotPasswordScreen,
  invoicesScreen,
  loginScreen,
  memberMenuScreen,
  membershipsScreen,
  passwordChangeScreen,
  passwordResetScreen,
  paymentMethodScreen,
  planSignupScreen,
  plansScreen,
  registerScreen,
  signInLinkScreen,
} from './screen-chunks';
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
  const { planPublicId, contentId, viewingPreference, token } = route.params;
  switch (route.name) {
    case 'signIn':
      return loggedIn ? home : loginScreen();
    case 'signInCode':
      return loggedIn ? home : askCodeScreen();
    // A member logged in may have forgotten the password too (changing it asks for it).
    case 'forgotPassword':
      return forgotPasswordScreen();
    // Mailed links: whoever is logged in, the link does what it says.
    case 'signInLink':
      return signInLinkScreen(token!);
    case 'passwordReset':
      return passwordResetScreen(token!);
    case 'emailConfirm':
      return emailConfirmScreen(token!);
    case 'signUp': {
      // Registers, then offers the plan named (spec: "registers the user and offers plan sign-up").
      const next = planPublicId ? planSignupScreen(planPublicId) : afterRegistrationScreen;
      return loggedIn ? home : registerScreen(next, planPublicId);
    }
    // The plans before the account: a visitor chooses first, then makes the account on the
    // plan's own screen, in the same step as the sign-up (spec 4.1's "register first").
    case 'allPlans':
      return plansScreen;
    case 'planSignUp':
      return planPublicId ? planSignupScreen(planPublicId) : loggedIn ? afterRegistrationScreen : registerScreen(afterRegistrationScreen);
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

/** Screens under the account: opened directly (a page's link), their back button leads to it. */
const UNDER_ACCOUNT = new Set(['memberships', 'invoices', 'accountEdit', 'emailChange', 'passwordChange', 'paymentMethod']);

/** The open dialog: one at a time; a second open replaces the first. */
let current: ScreenContext | undefined;

/**
 * A modal bundle's entry, speaking `t`: the words of the site's language, which chose the bundle
 * (the base's; a group's own words come with it, by `words`)
 * (or of the page's, when the site's settings could not be had; the dialog then says so in them).
 * Opens the dialog at once, with a spinner, then asks for the site's settings (widgets.js has
 * them already, or has just failed to get them) and draws the screen in the site's colours.
 * Not async: the dialog is open when this returns, so widgets.js can take its own loading
 * dialog away (open-route.ts) without a moment with none. One route waits for the settings
 * first: a logged-in /member/plans with no plan named runs the after-registration action, which
 * may open no dialog at all.
 */
export const modalEntry = (t: Messages | BaseWords, words?: WordLoaders): OpenModal => (host: ModalHost, path: string) => {
  const route = matchRoute(path);
  if (!route) {
    log.warn(`svcopen=${path} names no screen; see the svcopen paths in the widget's documentation.`);
    return Promise.resolve(false);
  }
  const doc = document;
  // The words of a group not yet downloaded are read by that group's screens only, once there
  // (screen-chunks.ts; test/widget/modal-words.test.ts holds every other module to that).
  const ctx = { doc, host, t, words, screens: SCREENS, download: leave, trail: [] as Screen[] } as ScreenContext;
  // A screen that cannot load its data says so in the dialog, in words.
  const fail = (error: unknown) => render(ctx, t.problem, el(doc, 'p', { role: 'alert' }, errorText(ctx.t, error).message));
  ctx.show = (next, from) => {
    ctx.trail = from ? [...ctx.trail, from] : [];
    ctx.dialog._body.setAttribute('aria-busy', 'true');
    void Promise.resolve().then(() => next(ctx)).catch(fail);
  };
  ctx.close = () => ctx.dialog._close();
  // The dialog closes even when the address is refused: the member stays on this page, as
  // after an action that stays (the sign-up or registration behind it is done).
  ctx.go = (url) => {
    ctx.close();
    leave(url);
  };
  const begin = () => {
    current?.close();
    ctx.dialog = openDialog(doc, { title: t.loading, closeLabel: t.close, backLabel: t.back, onClose: () => current === ctx && (current = undefined) });
    current = ctx;
  };
  if (!(route.name === 'planSignUp' && !route.params.planPublicId && host.member())) begin();
  return host.config().then(
    (config) => {
      const screen = screenFor(route, !!host.member(), config);
      // Nothing to show: the runtime signs out without a screen; an after-registration action
      // that stays or leaves needs no dialog.
      if (!screen || (screen === afterRegistrationScreen && config.afterRegistration.action !== 'plans')) {
        ctx.dialog?._close();
        if (!screen) log.warn(`svcopen=${path} opens no screen.`);
        else if (config.afterRegistration.action === 'redirect') leave(config.afterRegistration.url);
        return true;
      }
      if (!ctx.dialog) begin();
      ctx.config = config;
      ctx.dialog._site(config.theme, t.close, t.back, config.name);
      ctx.show(screen, UNDER_ACCOUNT.has(route.name) ? accountScreen : undefined);
      return true;
    },
    (error: unknown) => {
      // Offline, or the service is down: say so in the dialog (in the page's language) and
      // reject, so `Service.open` does not resolve as if a screen had opened.
      log.warn(`the widget's screens cannot open: ${(error as Error).message}`);
      if (!ctx.dialog) begin();
      fail(error);
      throw error;
    },
  );
};
