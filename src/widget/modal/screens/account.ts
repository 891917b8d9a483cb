import type { MemberInfo } from '../../../contract/member';
import { forMember, render, type Screen, type ScreenContext } from '../screen';
import { el } from '../ui';
import { logoutButton, screenLinks } from './menu-links';

/**
 * Who is logged in: initials in a circle (decoration: the name follows), the name, the e-mail.
 * `title` replaces the name in bold (the member menu's "Logged in as …").
 */
export function memberHeader({ doc }: ScreenContext, member: MemberInfo, title = member.name || member.email): HTMLElement {
  const initials = (member.name || member.email).split(/[\s@.]+/).filter(Boolean).slice(0, 2).map((word) => word[0]!.toUpperCase()).join('');
  return el(doc, 'div', { class: 'who' },
    el(doc, 'span', { class: 'avatar', 'aria-hidden': 'true' }, initials),
    el(doc, 'p', {}, el(doc, 'strong', {}, title), member.name ? el(doc, 'span', { class: 'muted' }, ' ', el(doc, 'br'), member.email) : null));
}

/** The member's account: who is logged in, a menu of the other screens, and logging out. */
export const accountScreen: Screen = forMember((ctx, member) => {
  const { doc, t } = ctx;
  const links = screenLinks(ctx, accountScreen, [
    [t.memberships, ctx.screens.memberships],
    [t.invoices, ctx.screens.invoices],
    [t.plans, ctx.screens.plans],
    [t.editAccount, ctx.screens.accountEdit],
    [t.changeEmail, ctx.screens.emailChange],
    [t.changePassword, ctx.screens.passwordChange],
    [t.paymentMethod, ctx.screens.paymentMethod],
  ]);
  render(ctx, t.account, memberHeader(ctx, member), el(doc, 'ul', { class: 'menu' }, ...links), el(doc, 'div', { class: 'actions' }, logoutButton(ctx)));
});
