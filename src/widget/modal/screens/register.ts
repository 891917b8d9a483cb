import type { PlanOffer, SignupFieldValue } from '../../../contract/member';
import type { ServiceError } from '../../public-types';
import { price } from '../format';
import { proceed, render, type Screen, type ScreenContext } from '../screen';
import { el, input, labelled } from '../ui';
import { customField, readCustom } from './custom-fields';
import { actionForm, valueOf } from './form';
import { screenButton } from './menu-links';

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
    const custom = config.signupFields.map((field) => customField(ctx, field));
    const form = actionForm(
      ctx,
      t.createAccount,
      [
        labelled(doc, t.firstName, input(doc, 'firstName', 'text', { autocomplete: 'given-name' })),
        labelled(doc, t.lastName, input(doc, 'lastName', 'text', { autocomplete: 'family-name' })),
        labelled(doc, t.email, input(doc, 'email', 'email', { autocomplete: 'email', required: '' })),
        labelled(doc, t.password, input(doc, 'password', 'password', { autocomplete: 'new-password', required: '', minlength: '8' })),
        ...custom,
      ],
      async (f) => {
        const customFields: Record<string, SignupFieldValue> = {};
        for (const field of config.signupFields) {
          const value = readCustom(f, field);
          if (value !== undefined) customFields[field.id] = value;
        }
        const email = valueOf(f, 'email');
        const password = valueOf(f, 'password');
        // A site that wants the address confirmed first mails a code: that screen, then `next`.
        // The password goes with the code, so the service knows the one who chose it is confirming.
        await ctx.host
          .register({ email, password, firstName: valueOf(f, 'firstName'), lastName: valueOf(f, 'lastName'), customFields })
          // The code screen is logging in's (a chunk joining does not download until it is needed).
          .then(() => proceed(ctx, next), (error: ServiceError) => import('./code').then((m) => m.confirmFirst(ctx, email, next, password)(error)));
      },
    );
    render(ctx, t.register, plan ? intro : null, form, el(doc, 'p', {}, `${t.haveAccount} `, screenButton(ctx, t.logIn, () => ctx.screens.login(next))));
  };
}

