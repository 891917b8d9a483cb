import { proceed, render, type Screen } from '../screen';
import { el, input, labelled } from '../ui';
import { confirmFirst } from './code';
import { actionForm, passwordField, valueOf } from './form';
import { askCodeScreen, forgotPasswordScreen } from './mail-request';
import { screenButton } from './menu-links';

/**
 * Log in; then the screen the visitor came for (`next`), or nothing more: the dialog closes.
 * Without the password: "Forgot password?" (a reset link) or "E-mail me a code", each with the
 * address typed so far. A member whose address the site wants confirmed first gets the code screen.
 */
export function loginScreen(next?: Screen): Screen {
  const screen: Screen = (ctx) => {
    const { doc, t, screens } = ctx;
    const typed = () => valueOf(form, 'email');
    const form = actionForm(
      ctx,
      t.logIn,
      [
        labelled(doc, t.email, input(doc, 'email', 'email', { autocomplete: 'email', required: '' })),
        passwordField(ctx, t.password, 'password'),
        el(doc, 'p', {}, screenButton(ctx, t.forgotPassword, () => forgotPasswordScreen(typed()), screen)),
      ],
      (f) => {
        const email = valueOf(f, 'email');
        const password = valueOf(f, 'password');
        return ctx.host.login({ email, password }).then(() => proceed(ctx, next), confirmFirst(ctx, email, next, password));
      },
    );
    render(ctx, t.logIn, form,
      el(doc, 'div', { class: 'actions' }, screenButton(ctx, t.emailCode, () => askCodeScreen(typed(), next), screen, '')),
      el(doc, 'p', {}, `${t.noAccount} `, screenButton(ctx, t.register, () => screens.register(next))));
  };
  return screen;
}
