import type { PlanOffer, SignupFieldValue } from '../../../contract/member';
import type { ServiceError } from '../../public-types';
import { price } from '../format';
import { proceed, render, type Screen, type ScreenContext } from '../screen';
import { withWords } from '../screen-chunks';
import { el, input, labelled } from '../ui';
import { customField, readCustom } from './custom-fields';
import { actionForm, passwordField, valueOf } from './form';
import { haveAccount } from './menu-links';

/**
 * Create an account with the site's custom sign-up fields; then `next`, or the dialog closes (on
 * a site that lets members in once their address is confirmed: the mailed code first).
 * When `plan` (a public id or key) is the plan whose sign-up follows, the screen names it once
 * GET /plans/{plan} answers (the form does not wait for it).
 */
export function registerScreen(next?: Screen, plan?: string): Screen {
  return (ctx: ScreenContext) => {
    const { doc, t, config } = ctx;
    const intro = el(doc, 'p', { class: 'muted' });
    if (plan) void ctx.host.call<PlanOffer>('GET', `/plans/${encodeURIComponent(plan)}`).then((offer) => (intro.textContent = t.registerFor(`${offer.name} (${price(offer, t, config.locale)})`)), () => undefined);
    const form = actionForm(ctx, t.createAccount, accountFields(ctx), async (f) => void ((await registerFrom(ctx, f, next)) && proceed(ctx, next)));
    render(ctx, t.register, plan ? intro : null, form, haveAccount(ctx, next));
  };
}

/**
 * The account's fields: names, e-mail, a new password, and the site's own sign-up questions. The
 * password may be left empty: the account then logs in with codes mailed to it (the sign-up's
 * own code first, before anything else: POST /members without a password).
 */
export function accountFields(ctx: ScreenContext): HTMLElement[] {
  const { doc, t, config } = ctx;
  return [
    labelled(doc, t.firstName, input(doc, 'firstName', 'text', { autocomplete: 'given-name' })),
    labelled(doc, t.lastName, input(doc, 'lastName', 'text', { autocomplete: 'family-name' })),
    labelled(doc, t.email, input(doc, 'email', 'email', { autocomplete: 'email', required: '' })),
    passwordField(ctx, t.password, 'password', true, true),
    ...config.signupFields.map((field) => customField(ctx, field)),
  ];
}

/**
 * Creates the account from a form with accountFields; true once logged in. A site that wants the
 * address confirmed first mails a code: that screen is shown (then `next`), and this is false.
 * Anything else the service refuses rejects, for the form to show next to its field.
 */
export async function registerFrom(ctx: ScreenContext, f: HTMLFormElement, next?: Screen): Promise<boolean> {
  const customFields: Record<string, SignupFieldValue> = {};
  for (const field of ctx.config.signupFields) {
    const value = readCustom(f, field);
    if (value !== undefined) customFields[field.id] = value;
  }
  const email = valueOf(f, 'email');
  const password = valueOf(f, 'password') || undefined;
  // The password goes with the code, so the service knows the one who chose it is confirming.
  return ctx.host.register({ email, password, firstName: valueOf(f, 'firstName'), lastName: valueOf(f, 'lastName'), customFields }).then(
    () => true,
    // The code screen is logging in's, with its words (chunks joining does not download until needed).
    (error: ServiceError) => withWords(ctx, import('./code'), ctx.words?.signIn()).then((m) => (m.confirmFirst(ctx, email, next, password)(error), false)),
  );
}
