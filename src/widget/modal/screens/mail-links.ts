/**
 * Where the links in the service's mails lead (their svcopen paths, routes.ts): each carries a
 * token that works once, for a while.
 */
import type { EmailChangedResponse } from '../../../contract/member';
import { errorText, render, type Screen, type ScreenContext } from '../screen';
import { el } from '../ui';
import { actionForm, passwordField, valueOf } from './form';
import { forgotPasswordScreen } from './mail-request';
import { screenButton } from './menu-links';

/** "Log in", for someone a link could not log in or who is not logged in here. */
const toLogin = (ctx: ScreenContext) => el(ctx.doc, 'div', { class: 'actions' }, screenButton(ctx, ctx.t.logIn, () => ctx.screens.login(), undefined, 'primary'));

/**
 * A sign-in link: logs in, and the dialog closes (`Service.member.info` says who). A link that no
 * longer works says why, with the way in that is left: the log-in screen (a password, a new code).
 */
export const signInLinkScreen = (token: string): Screen => (ctx) =>
  ctx.host.session('/sessions', { token }).then(
    () => ctx.close(),
    (error: unknown) => render(ctx, ctx.t.problem, el(ctx.doc, 'p', { role: 'alert' }, errorText(ctx.t, error).message), toLogin(ctx)),
  );

/**
 * A reset link: a new password, which logs the member in (their other sessions end); then the
 * account, saying so. A link that no longer works is said above the button, "Forgot password?"
 * below asks for another.
 */
export const passwordResetScreen = (token: string): Screen => (ctx) => {
  const { doc, t } = ctx;
  const form = actionForm(ctx, t.save, [passwordField(ctx, t.newPassword, 'newPassword', true)], async (f) => {
    await ctx.host.session('/password-reset/complete', { token, newPassword: valueOf(f, 'newPassword') });
    ctx.notice = t.passwordSaved;
    ctx.show(ctx.screens.account);
  });
  render(ctx, t.changePassword, form, el(doc, 'p', {}, screenButton(ctx, t.forgotPassword, () => forgotPasswordScreen())));
};

/**
 * An e-mail change's link (no login needed): the new address takes effect. A logged-in member
 * sees it in the account; anyone else is told, with a way to log in.
 */
export const emailConfirmScreen = (token: string): Screen => async (ctx) => {
  const { t, host } = ctx;
  const { email } = await host.call<EmailChangedResponse>('POST', '/email-changes', { token });
  ctx.notice = t.emailNow(email);
  if (host.member()) await host.refresh().catch(() => undefined);
  if (host.member()) ctx.show(ctx.screens.account);
  else render(ctx, t.changeEmail, toLogin(ctx));
};
