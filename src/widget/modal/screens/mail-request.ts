import { render, type Screen, type ScreenContext } from '../screen';
import { el, input, labelled } from '../ui';
import { enterCodeScreen, mailTo } from './code';
import { actionForm, valueOf } from './form';

type Words = 'forgotPassword' | 'emailCode' | 'emailLink';

/**
 * An e-mail field (with what was typed on the log-in form) and a button that has the service
 * mail that address (POST `path`); then `sent`, with the address as the service wrote it and
 * this screen to come back to. The answer is the same for an address that is no member's:
 * nothing here tells who is one.
 */
function mailRequest(title: Words, button: Words, path: string, email: string, sent: (ctx: ScreenContext, to: string, from: Screen) => void): Screen {
  const screen: Screen = (ctx) => {
    const { doc, t } = ctx;
    const field = input(doc, 'email', 'email', { autocomplete: 'email', required: '', value: email });
    const form = actionForm(ctx, t[button], [labelled(doc, t.email, field)], async (f) => sent(ctx, (await mailTo(ctx, path, valueOf(f, 'email'))).email, screen));
    render(ctx, t[title], form);
  };
  return screen;
}

/** "Forgot password?": a link to set a new one, by e-mail (it works for an hour); then "Check your inbox". */
export const forgotPasswordScreen = (email = ''): Screen =>
  mailRequest('forgotPassword', 'emailLink', '/password-reset', email, (ctx, to) => {
    const { doc, t } = ctx;
    render(ctx, t.checkInbox, el(doc, 'p', { role: 'status' }, t.resetSent(to)));
  });

/** "E-mail me a code": a 6-digit code by e-mail, then the screen that takes it (back here to fix the address). */
export const askCodeScreen = (email = '', next?: Screen): Screen =>
  mailRequest('emailCode', 'emailCode', '/sign-in-codes', email, (ctx, to, from) => ctx.show(enterCodeScreen(to, next), from));

