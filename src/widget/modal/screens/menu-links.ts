import type { Screen, ScreenContext } from '../screen';
import { el } from '../ui';

/**
 * "Choose: <plan>", opening that plan's sign-up in the same dialog (the plans, and the plans that
 * open content); back leads to `from`, the list it was chosen from.
 */
export const planChoice = (ctx: ScreenContext, plan: { publicId: string; name: string }, from?: Screen): HTMLButtonElement =>
  screenButton(ctx, `${ctx.t.choose}: ${plan.name}`, () => ctx.screens.planSignup(plan.publicId), from, 'primary');

/** An empty list's next step: the plans, with a way back here (`from`) when given. */
export const seePlans = (ctx: ScreenContext, from?: Screen): HTMLElement =>
  el(ctx.doc, 'div', { class: 'actions' }, screenButton(ctx, ctx.t.seePlans, () => ctx.screens.plans, from, 'primary'));

/**
 * A button that opens another screen in the same dialog (`to`, made on the click, so it can read
 * what was typed by then), with a way back to `from` when given. Link-style unless `className` says.
 */
export function screenButton(ctx: ScreenContext, label: string, to: () => Screen, from?: Screen, className = 'link'): HTMLButtonElement {
  const button = el(ctx.doc, 'button', { type: 'button', class: className }, label);
  button.addEventListener('click', () => ctx.show(to(), from));
  return button;
}

/** "Already a member? Log in", then `next`. */
export const haveAccount = (ctx: ScreenContext, next?: Screen): HTMLElement =>
  el(ctx.doc, 'p', {}, `${ctx.t.haveAccount} `, screenButton(ctx, ctx.t.logIn, () => ctx.screens.login(next)));
