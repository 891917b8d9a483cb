import { forMember, render, type Screen } from '../screen';
import { el } from '../ui';
import { logoutButton, memberHeader, screenLinks } from './account';

/**
 * The member menu, for sites that enable one (`memberMenu` in GET /config): where a logged-in
 * member lands from "Log in" or "Register", with the screens a member comes back for.
 */
export const memberMenuScreen: Screen = forMember((ctx, member) => {
  const { doc, t } = ctx;
  const links = screenLinks(ctx, memberMenuScreen, [
    [t.account, ctx.screens.account],
    [t.memberships, ctx.screens.memberships],
    [t.invoices, ctx.screens.invoices],
    [t.plans, ctx.screens.plans],
  ]);
  // Said in words: "Logged in as …" (the header's name alone would not say it).
  const header = memberHeader(ctx, member, t.signedInAs(member.name || member.email));
  render(ctx, t.menu, header, el(doc, 'nav', { 'aria-label': t.menu }, el(doc, 'ul', { class: 'menu' }, ...links, el(doc, 'li', {}, logoutButton(ctx, { class: 'link' })))));
});
