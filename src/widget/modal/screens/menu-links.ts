import type { Screen, ScreenContext } from '../screen';
import { el } from '../ui';

/**
 * A menu of rows, each opening its screen in the same dialog, with a way back to `from` (the
 * account screen, the member menu).
 */
export function screenLinks(ctx: ScreenContext, from: Screen, entries: readonly (readonly [label: string, screen: Screen])[]): HTMLLIElement[] {
  return entries.map(([label, screen]) => {
    const link = el(ctx.doc, 'button', { type: 'button', class: 'link' }, label);
    link.addEventListener('click', () => ctx.show(screen, from));
    return el(ctx.doc, 'li', {}, link);
  });
}

/** "Log out": logs out on the service, then closes the dialog. */
export function logoutButton(ctx: ScreenContext, attributes: Record<string, string> = {}): HTMLButtonElement {
  const logout = el(ctx.doc, 'button', { type: 'button', ...attributes }, ctx.t.logOut);
  logout.addEventListener('click', () => {
    logout.disabled = true;
    void ctx.host.logout().finally(() => ctx.close());
  });
  return logout;
}

/**
 * "Choose: <plan>", opening that plan's sign-up in the same dialog (the plans, and the plans that
 * open content); back leads to `from`, the list it was chosen from.
 */
export function planChoice(ctx: ScreenContext, plan: { publicId: string; name: string }, from?: Screen): HTMLButtonElement {
  const choose = el(ctx.doc, 'button', { type: 'button', class: 'primary' }, `${ctx.t.choose}: ${plan.name}`);
  choose.addEventListener('click', () => ctx.show(ctx.screens.planSignup(plan.publicId), from));
  return choose;
}

/** An empty list's next step: the plans, with a way back here. */
export function seePlans(ctx: ScreenContext, from: Screen): HTMLElement {
  const button = el(ctx.doc, 'button', { type: 'button', class: 'primary' }, ctx.t.seePlans);
  button.addEventListener('click', () => ctx.show(ctx.screens.plans, from));
  return el(ctx.doc, 'div', { class: 'actions' }, button);
}
