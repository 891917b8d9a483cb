import type { MailSentResponse } from '../../../contract/member';
import type { ServiceError } from '../../public-types';
import { errorText, proceed, render, type Screen, type ScreenContext } from '../screen';
import { el, input, labelled, showErrors } from '../ui';
import { actionForm, valueOf } from './form';

/**
 * Has the service mail the member (a reset link, a sign-in code): `returnTo`, where its link
 * leads back to, is this page (svcopen is out of its address already).
 */
export const mailTo = (ctx: ScreenContext, path: string, email: string): Promise<MailSentResponse> =>
  ctx.host.call<MailSentResponse>('POST', path, { email, returnTo: location.href });

/** The mailed code's field: the browser may offer the code from the mail (one-time-code). */
export const codeField = ({ doc, t }: ScreenContext): HTMLElement =>
  labelled(doc, t.code, input(doc, 'code', 'text', { autocomplete: 'one-time-code', inputmode: 'numeric', required: '' }));

/** The code as typed, without the spaces a person may put in it ("123 456"). */
export const codeOf = (form: HTMLFormElement): string => valueOf(form, 'code').replace(/\s/g, '');

/**
 * A sign-in or sign-up refused until the address is confirmed (a code is on its way): the code
 * screen instead, then `next` as after logging in. Any other failure stays the form's. The
 * password typed goes with the code: the service keeps it only for someone who shows it (an
 * account made in another's name loses its password at its first confirmation).
 */
export const confirmFirst = (ctx: ScreenContext, email: string, next?: Screen, password?: string) => (error: ServiceError) => {
  if (error.code !== 'emailNotConfirmed') throw error;
  ctx.show(enterCodeScreen(email, next, true, password));
};

/**
 * The code mailed to `email` logs in (POST /sessions), then `next`, as the log-in form does; it
 * confirms the address too (`confirming`: after signing up on a site that asks for that).
 * "Send a new code" asks for another, and says when it is sent.
 */
export function enterCodeScreen(email: string, next?: Screen, confirming?: boolean, password?: string): Screen {
  return (ctx) => {
    const { doc, t } = ctx;
    const form = actionForm(ctx, t.logIn, [codeField(ctx)], async (f) => {
      await ctx.host.session('/sessions', { email, code: codeOf(f), password });
      proceed(ctx, next);
    });
    const sent = el(doc, 'p', { role: 'status' });
    const again = el(doc, 'button', { type: 'button' }, t.newCode);
    again.addEventListener('click', () => {
      again.disabled = true;
      sent.textContent = '';
      showErrors(form, []);
      mailTo(ctx, '/sign-in-codes', email)
        .then(() => (sent.textContent = t.sent), (error: unknown) => showErrors(form, [errorText(t, error)]))
        .finally(() => (again.disabled = false));
    });
    render(ctx, t.checkInbox, el(doc, 'p', {}, (confirming ? t.confirmEmail : t.codeSent)(email)), form, el(doc, 'div', { class: 'actions' }, again, sent));
  };
}
