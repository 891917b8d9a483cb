import type { MemberInfo } from '../../../contract/member';
import { forMember, render, type Screen, type ScreenContext } from '../screen';
import { el } from '../ui';
import { membershipLines, membershipPrices } from './membership-lines';
import { logoutButton, screenLinks } from './menu-links';

/** The account's menus and who is logged in: drawn by this chunk's screens alone (Dialog._addStyle). */
export const MENU_STYLE =
  '.menu li{border-bottom:1px solid var(--d)}' +
  '.menu button{display:flex;width:100%;justify-content:space-between;align-items:center;padding:.75rem .25rem;text-decoration:none;color:inherit}' +
  '.menu button:after{content:"";width:.4em;height:.4em;border:solid var(--m);border-width:2px 2px 0 0;rotate:45deg}' +
  '.who{display:flex;gap:.75rem;align-items:center;margin-top:.5rem;overflow-wrap:anywhere}.who+.summary{margin-top:1rem}' +
  '.avatar{flex:none;display:grid;place-items:center;width:3rem;height:3rem;border-radius:50%;background:var(--a);color:var(--on-a,#fff)}';

/**
 * Who is logged in: initials in a circle (decoration: the name follows), the name, the e-mail.
 * `title` replaces the name in bold (the member menu's "Logged in as …").
 */
export function memberHeader({ doc, dialog }: ScreenContext, member: MemberInfo, title = member.name || member.email): HTMLElement {
  dialog._addStyle(MENU_STYLE);
  const initials = (member.name || member.email).split(/[\s@.]+/).filter(Boolean).slice(0, 2).map((word) => word[0]!.toUpperCase()).join('');
  return el(doc, 'div', { class: 'who' },
    el(doc, 'span', { class: 'avatar', 'aria-hidden': 'true' }, initials),
    el(doc, 'p', {}, el(doc, 'strong', {}, title), member.name ? el(doc, 'span', { class: 'muted' }, ' ', el(doc, 'br'), member.email) : null));
}

/**
 * The member's account: who is logged in, a summary of what they hold (each running plan, what
 * it costs them, and when it next charges or ends), a menu of the other screens, and logging out.
 */
export const accountScreen: Screen = forMember(async (ctx, member) => {
  const { doc, t } = ctx;
  const held = member.memberships.filter((m) => m.status === 'active');
  const prices = held.length ? await membershipPrices(ctx) : new Map();
  const links = screenLinks(ctx, accountScreen, [
    [t.memberships, ctx.screens.memberships],
    [t.invoices, ctx.screens.invoices],
    [t.plans, ctx.screens.plans],
    [t.editAccount, ctx.screens.accountEdit],
    [t.changeEmail, ctx.screens.emailChange],
    [t.changePassword, ctx.screens.passwordChange],
    [t.paymentMethod, ctx.screens.paymentMethod],
  ]);
  render(
    ctx,
    t.account,
    memberHeader(ctx, member),
    ...held.map((m) => el(doc, 'div', { class: 'summary' }, ...membershipLines(ctx, m, prices.get(m.id)))),
    el(doc, 'ul', { class: 'menu' }, ...links),
    el(doc, 'div', { class: 'actions' }, logoutButton(ctx)),
  );
});
