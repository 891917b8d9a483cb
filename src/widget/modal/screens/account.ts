import type { MemberInfo } from '../../../contract/member';
import { forMember, render, type Screen, type ScreenContext } from '../screen';
import { el } from '../ui';
import { membershipLines, membershipPrices } from './membership-lines';
import { screenButton } from './menu-links';
import { pictureForm, pictureOf } from './profile-picture';

/** The account's menus, who is logged in and their picture: drawn by this chunk's screens alone (Dialog._addStyle). */
export const MENU_STYLE =
  '.menu li{border-bottom:1px solid var(--d)}' +
  '.menu button{display:flex;width:100%;justify-content:space-between;align-items:center;padding:.75rem .25rem;text-decoration:none;color:inherit}' +
  '.menu button:after{content:"";width:.4em;height:.4em;border:solid var(--m);border-width:2px 2px 0 0;rotate:45deg}' +
  '.who{display:flex;gap:.75rem;align-items:center;margin-top:.5rem;overflow-wrap:anywhere}.who+.summary{margin-top:1rem}' +
  '.avatar{flex:none;display:grid;place-items:center;width:3rem;height:3rem;border-radius:50%;background:var(--a);color:var(--on-a,#fff);object-fit:cover}' +
  // The picture's form: its button and "Remove picture" side by side, in place (not sticky: the menu is the screen's main part).
  '.pic{grid-template-columns:auto 1fr;align-items:center;column-gap:1rem}.pic>:not(button){grid-column:1/-1}.pic>[type=submit]{position:static}.pic>.link{justify-self:start}';

/**
 * A menu of rows, each opening its screen in the same dialog, with a way back to `from` (the
 * account screen, the member menu). Here, not among the helpers every screen downloads: only
 * the account's chunk draws one.
 */
export function screenLinks(ctx: ScreenContext, from: Screen, entries: readonly (readonly [label: string, screen: Screen])[]): HTMLLIElement[] {
  return entries.map(([label, screen]) => el(ctx.doc, 'li', {}, screenButton(ctx, label, () => screen, from)));
}

/** "Log out": logs out on the service, then closes the dialog. The account's chunk alone draws it (its word is the account's). */
export function logoutButton(ctx: ScreenContext, attributes: Record<string, string> = {}): HTMLButtonElement {
  const logout = el(ctx.doc, 'button', { type: 'button', ...attributes }, ctx.t.logOut);
  logout.addEventListener('click', () => {
    logout.disabled = true;
    void ctx.host.logout().finally(() => ctx.close());
  });
  return logout;
}

/**
 * Who is logged in: their picture, or their initials, in a circle (decoration: the name follows),
 * the name, the e-mail. `title` replaces the name in bold (the member menu's "Logged in as …").
 */
export function memberHeader({ doc, dialog }: ScreenContext, member: MemberInfo, title = member.name || member.email): HTMLElement {
  dialog._addStyle(MENU_STYLE);
  const initials = (member.name || member.email).split(/[\s@.]+/).filter(Boolean).slice(0, 2).map((word) => word[0]!.toUpperCase()).join('');
  const picture = pictureOf(member);
  return el(doc, 'div', { class: 'who' },
    picture ? el(doc, 'img', { class: 'avatar', src: picture, alt: '' }) : el(doc, 'span', { class: 'avatar', 'aria-hidden': 'true' }, initials),
    el(doc, 'p', {}, el(doc, 'strong', {}, title), member.name ? el(doc, 'span', { class: 'muted' }, ' ', el(doc, 'br'), member.email) : null));
}

/**
 * The member's account: who is logged in, a summary of what they hold (each running plan, what
 * it costs them, and when it next charges or ends), a menu of the other screens, their picture,
 * and logging out.
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
  const actions = el(doc, 'div', { class: 'actions' }, logoutButton(ctx));
  render(
    ctx,
    t.account,
    memberHeader(ctx, member),
    ...held.map((m) => el(doc, 'div', { class: 'summary' }, ...membershipLines(ctx, m, prices.get(m.id)))),
    el(doc, 'ul', { class: 'menu' }, ...links),
    actions,
  );
  // After render, which focuses the first field it draws: the screen opens on its menu, as before.
  actions.before(pictureForm(ctx, member));
});
